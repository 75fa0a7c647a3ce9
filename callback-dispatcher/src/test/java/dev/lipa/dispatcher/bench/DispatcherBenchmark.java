package dev.lipa.dispatcher.bench;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.sun.net.httpserver.HttpServer;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.dispatcher.CallbackDispatcherApplication;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Measures callbacks delivered per second to a fast local receiver. Not a test: run it by hand (see the README).
 *
 * <p>Arguments: {@code [count] [--kafka=host:port]}. Without {@code --kafka} everything runs in this JVM: an
 * embedded Kafka broker, the in-memory store, the dispatcher itself and the receiver (so the figure includes their
 * share of the CPU). With {@code --kafka} it only produces to {@code payments.callbacks.v1} of a running platform
 * and counts what that platform's dispatcher delivers (which must allow private targets, as the local platform does).
 *
 * <p>It first sends a warm-up batch and waits for it, then produces {@code count} callback requests as fast as it
 * can and reports the rate at the receiver from its first to its last measured callback.
 */
public final class DispatcherBenchmark {

  private static final int WARM_UP = 2_000;

  /**
   * Write statements the dispatcher sends to its database, counted as the platform bench's store counts them: one per
   * document of an insert, one per statement of an update or delete, one per findAndModify.
   */
  private static final AtomicLong WRITES = new AtomicLong();

  private static final CommandListener WRITE_COUNTER = new CommandListener() {
    @Override
    public void commandStarted(CommandStartedEvent event) {
      BsonDocument command = event.getCommand();
      switch (event.getCommandName()) {
        case "insert" -> WRITES.addAndGet(size(command, "documents"));
        case "update" -> WRITES.addAndGet(size(command, "updates"));
        case "delete" -> WRITES.addAndGet(size(command, "deletes"));
        case "findAndModify" -> WRITES.incrementAndGet();
        default -> {
        }
      }
    }

    private static long size(BsonDocument command, String field) {
      // the driver sends bulk statements as a separate payload, not inside the command document
      BsonValue value = command.get(field);
      return value != null && value.isArray() ? value.asArray().size() : 1;
    }
  };

  private DispatcherBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int count = 20_000;
    String kafka = null;
    for (String arg : args) {
      if (arg.startsWith("--kafka=")) {
        kafka = arg.substring("--kafka=".length());
      } else {
        count = Integer.parseInt(arg);
      }
    }
    AtomicLong received = new AtomicLong();
    AtomicLong firstAt = new AtomicLong();
    AtomicLong lastAt = new AtomicLong();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
    receiver.createContext("/", exchange -> {
      try (exchange; InputStream body = exchange.getRequestBody()) {
        body.readAllBytes();
        exchange.sendResponseHeaders(204, -1);
      }
      long now = System.nanoTime();
      if (received.incrementAndGet() == WARM_UP + 1) {
        firstAt.set(now);
      }
      lastAt.set(now);
    });
    receiver.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    receiver.start();
    String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/callbacks";

    String run = UUID.randomUUID().toString().substring(0, 8);
    String topic = kafka == null ? Topics.CALLBACKS + ".bench-" + run : Topics.CALLBACKS;
    String bootstrap = kafka == null ? SharedInfra.kafkaBootstrapServers() : kafka;
    ConfigurableApplicationContext dispatcher = null;
    if (kafka == null) {
      SpringApplication application = new SpringApplication(CallbackDispatcherApplication.class);
      application.addInitializers(context -> context.getBeanFactory().registerSingleton("benchWriteCounter",
          (MongoClientSettingsBuilderCustomizer) settings -> settings.addCommandListener(WRITE_COUNTER)));
      dispatcher = application.run(
          "--server.port=0",
          "--spring.mongodb.uri=" + SharedInfra.mongoUri(),
          "--spring.mongodb.database=lipa-dispatcher-bench-" + run,
          "--spring.kafka.bootstrap-servers=" + bootstrap,
          "--lipa.dispatcher.intake.topic=" + topic,
          "--lipa.dispatcher.intake.group=bench-" + run,
          "--lipa.callbacks.allow-private-targets=true",
          "--lipa.security.jwks-uri=http://127.0.0.1:9/unused",
          "--lipa.secrets.master-keys=" + SharedInfra.MASTER_KEYS,
          "--logging.level.root=WARN",
          "--logging.level.dev.lipa=WARN");
    }
    try (KafkaProducer<String, String> producer = producer(bootstrap)) {
      List<String> organisations = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        organisations.add(UUID.randomUUID().toString());
      }
      System.out.printf("warming up with %,d callbacks...%n", WARM_UP);
      produce(producer, topic, url, organisations, WARM_UP);
      awaitReceived(received, WARM_UP, Duration.ofMinutes(3));

      System.out.printf("producing %,d callback requests...%n", count);
      long writesBefore = WRITES.get();
      long started = System.nanoTime();
      produce(producer, topic, url, organisations, count);
      double producedIn = (System.nanoTime() - started) / 1e9;
      awaitReceived(received, WARM_UP + count, Duration.ofMinutes(10));
      double seconds = (lastAt.get() - firstAt.get()) / 1e9;
      System.out.printf("produced %,d in %.1f s; delivered %,d in %.2f s: %,.0f callbacks/s%n", count, producedIn,
          count, seconds, count / seconds);
      if (dispatcher != null) {
        Thread.sleep(500); // the last attempts' results are written just after their callbacks arrived
        System.out.printf("store write statements: %,d, %.2f per callback%n", WRITES.get() - writesBefore,
            (WRITES.get() - writesBefore) / (double) count);
      }
    } finally {
      receiver.stop(0);
      if (dispatcher != null) {
        dispatcher.close();
      }
    }
    System.exit(0);
  }

  private static void produce(KafkaProducer<String, String> producer, String topic, String url,
      List<String> organisations, int count) throws Exception {
    List<Future<RecordMetadata>> sent = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String requestId = UUID.randomUUID().toString();
      String organisation = organisations.get(i % organisations.size());
      String value = """
          {"eventId":"%s","type":"callback.requested","version":1,"occurredAt":"%s","organisationId":"%s",\
          "data":{"callbackId":"%s","requestId":"%s","url":"%s","kind":"stk","body":{"requestId":"%s",\
          "status":"SUCCESS","amount":100.50,"phoneNumber":"254708374149","resultCode":0}}}"""
          .formatted(UUID.randomUUID(), Instant.now(), organisation, UUID.randomUUID(), requestId, url, requestId);
      sent.add(producer.send(new ProducerRecord<>(topic, requestId, value)));
    }
    for (Future<RecordMetadata> future : sent) {
      future.get();
    }
  }

  private static void awaitReceived(AtomicLong received, long target, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    long last = -1;
    while (received.get() < target) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + received.get() + " of " + target + " callbacks arrived");
      }
      Thread.sleep(200);
      long now = received.get();
      if (now / 5000 != last / 5000) {
        System.out.printf("  received %,d%n", now);
      }
      last = now;
    }
  }

  private static KafkaProducer<String, String> producer(String bootstrap) throws IOException {
    return new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.LINGER_MS_CONFIG, 5,
        ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024),
        new StringSerializer(), new StringSerializer());
  }
}
