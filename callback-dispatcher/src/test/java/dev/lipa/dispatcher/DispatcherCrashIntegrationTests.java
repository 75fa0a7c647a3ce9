package dev.lipa.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Filters;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.dispatcher.TestReceiver.Received;
import dev.lipa.dispatcher.TestReceiver.Reply;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Kills a real dispatcher process with SIGKILL in the middle of delivering a callback, starts it again, and checks the
 * callback still arrives, with the same webhook-id. The process is the module's own Boot jar (built in the package
 * phase, before failsafe runs), pointed at this JVM's shared broker and store; its own topic, consumer group and
 * database keep it apart from the dispatcher the other integration tests run in this JVM.
 */
class DispatcherCrashIntegrationTests {

  private static final Path JAR = Path.of("target", "callback-dispatcher.jar");
  private static final Duration START_WAIT = Duration.ofSeconds(90);

  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final String topic = "payments.callbacks.v1.crash-" + run;
  private final String database = "lipa-dispatcher-crash-" + run;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stopProcesses() {
    processes.forEach(Process::destroyForcibly);
  }

  private Process startDispatcher(int generation) throws IOException {
    assertThat(JAR).as("the Boot jar is built in the package phase").exists();
    String java = ProcessHandle.current().info().command().orElse("java");
    Path log = Path.of("target", "crash-test-" + run + "-" + generation + ".log");
    ProcessBuilder builder = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-jar", JAR.toString(),
        "--server.port=0",
        "--spring.mongodb.uri=" + SharedInfra.mongoUri(),
        "--spring.mongodb.database=" + database,
        "--spring.kafka.bootstrap-servers=" + SharedInfra.kafkaBootstrapServers(),
        "--lipa.dispatcher.intake.topic=" + topic,
        "--lipa.dispatcher.intake.group=crash-" + run,
        "--lipa.callbacks.allow-private-targets=true",
        "--lipa.dispatcher.request-timeout=2s",
        "--lipa.dispatcher.lease-duration=3s",
        "--lipa.dispatcher.poll-interval=100ms",
        "--lipa.security.jwks-uri=http://127.0.0.1:9/unused")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    // the master key through the environment, never the command line (every local user can read that)
    builder.environment().put("LIPA_SECRETS_MASTER_KEYS", SharedInfra.MASTER_KEYS);
    Process process = builder.start();
    processes.add(process);
    return process;
  }

  @Test
  void deliversACallbackAfterTheDispatcherIsKilledMidDelivery() throws Exception {
    try (TestReceiver receiver = TestReceiver.start();
        MongoClient mongo = MongoClients.create(SharedInfra.mongoUri());
        KafkaProducer<String, String> producer = producer()) {
      String path = "/crash/" + run;
      // the first request hangs until the process that sent it is dead; the next one is answered at once
      receiver.script(path, Reply.after(Duration.ofSeconds(60), 200), Reply.status(200));
      String callbackId = UUID.randomUUID().toString();
      String requestId = UUID.randomUUID().toString();
      producer.send(new ProducerRecord<>(topic, requestId, record(callbackId, requestId, receiver.url(path)))).get();

      Process first = startDispatcher(1);
      await().atMost(START_WAIT).until(() -> !receiver.received(path).isEmpty() || !first.isAlive());
      assertThat(first.isAlive()).as("first dispatcher is running (see target/crash-test-*-1.log)").isTrue();

      first.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful stop
      first.waitFor();
      Document leftBehind = mongo.getDatabase(database).getCollection("deliveries")
          .find(Filters.eq("_id", callbackId)).first();
      assertThat(leftBehind.getString("status")).isEqualTo("PENDING");
      assertThat(leftBehind.getInteger("attempts")).as("the attempt never completed").isZero();

      startDispatcher(2);
      await().atMost(START_WAIT).until(() -> receiver.received(path).size() >= 2);
      Document delivered = await().atMost(Duration.ofSeconds(20)).until(
          () -> mongo.getDatabase(database).getCollection("deliveries").find(Filters.eq("_id", callbackId)).first(),
          doc -> "DELIVERED".equals(doc.getString("status")));

      List<Received> posts = receiver.received(path);
      assertThat(posts).extracting(post -> post.header("webhook-id")).containsOnly(callbackId);
      assertThat(posts).allSatisfy(post -> assertThat(post.header("webhook-signature")).startsWith("v1,"));
      assertThat(delivered.getInteger("attempts")).isEqualTo(1);
    }
  }

  private static KafkaProducer<String, String> producer() {
    return new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
        new StringSerializer(), new StringSerializer());
  }

  private static String record(String callbackId, String requestId, String url) {
    return """
        {"eventId":"%s","type":"callback.requested","version":1,"occurredAt":"%s","organisationId":"%s",\
        "data":{"callbackId":"%s","requestId":"%s","url":"%s","kind":"stk","body":{"requestId":"%s","status":"SUCCESS"}}}"""
        .formatted(UUID.randomUUID(), Instant.now(), UUID.randomUUID(), callbackId, requestId, url, requestId);
  }
}
