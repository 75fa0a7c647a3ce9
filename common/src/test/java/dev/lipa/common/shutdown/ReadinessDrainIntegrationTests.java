package dev.lipa.common.shutdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A service wired as the platform's are (auto-configuration only, Tomcat, actuator's probes, a Kafka listener on the
 * shared broker) is told to stop, as SIGTERM does (its context closes): its readiness answers 503 at once, while an
 * ordinary endpoint keeps answering and its listener keeps consuming for the whole drain delay; only then does it
 * stop, the listener committing what it read.
 */
class ReadinessDrainIntegrationTests {

  private static final Duration DRAIN = Duration.ofSeconds(3);
  private static final String TOPIC = "test.drain.v1";
  private static final String GROUP = "drain-tests-" + UUID.randomUUID();
  private static final String READINESS = "/actuator/health/readiness";
  private static final String PING = "/test/v1/ping";

  private ConfigurableApplicationContext service;

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
  }

  private static ConfigurableApplicationContext start(Duration drainDelay) {
    // as command-line arguments: they win over the test JVM's own lipa.shutdown.drain-delay=0s (the parent pom's)
    return new SpringApplicationBuilder(DrainingService.class).run(
        "--server.port=0",
        "--spring.application.name=drain-tests",
        "--spring.mongodb.uri=" + SharedInfra.mongoUri(),
        "--spring.mongodb.database=drain-tests",
        "--spring.kafka.bootstrap-servers=" + SharedInfra.kafkaBootstrapServers(),
        "--spring.kafka.consumer.group-id=" + GROUP,
        "--spring.kafka.consumer.auto-offset-reset=earliest",
        "--spring.kafka.consumer.key-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
        "--spring.kafka.consumer.value-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
        "--lipa.secrets.master-keys=" + SharedInfra.MASTER_KEYS,
        "--management.endpoint.health.probes.enabled=true",
        "--management.endpoints.web.exposure.include=health",
        "--lipa.shutdown.drain-delay=" + drainDelay.toMillis() + "ms");
  }

  private static TestHttp http(ConfigurableApplicationContext context) {
    int port = ((WebServerApplicationContext) context).getWebServer().getPort();
    return new TestHttp("http://127.0.0.1:" + port);
  }

  @Test
  void readinessGoesDownAtOnceWhileRequestsAndRecordsAreServedForTheDrainDelay() throws Exception {
    service = start(DRAIN);
    TestHttp http = http(service);
    DrainingService.Listener listener = service.getBean(DrainingService.Listener.class);
    assertThat(http.get(READINESS, Map.of()).status()).isEqualTo(200);
    // the listener has its partitions (it read a first record) before the stop begins
    String first = "before-" + UUID.randomUUID();
    TestKafka.send(TOPIC, "k", first);
    await().atMost(Duration.ofSeconds(60)).until(() -> listener.seen.contains(first));

    long stopAsked = System.nanoTime();
    CompletableFuture<Void> closed = CompletableFuture.runAsync(service::close, Thread::startVirtualThread);
    ConfigurableApplicationContext stopping = service;
    service = null;

    await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(20))
        .until(() -> http.get(READINESS, Map.of()).status() == 503);
    assertThat(http.get(READINESS, Map.of()).json().path("status").asString()).isEqualTo("OUT_OF_SERVICE");

    // a record published while it drains is still read: the listeners stop after the drain, not before
    String during = "during-" + UUID.randomUUID();
    RecordMetadata duringRecord = TestKafka.send(TOPIC, "k", during);
    List<Integer> answers = new ArrayList<>();
    List<Long> answeredAtMillis = new CopyOnWriteArrayList<>();
    long servingUntil = stopAsked + DRAIN.minusMillis(500).toNanos();
    while (System.nanoTime() < servingUntil) {
      answers.add(http.get(PING, Map.of()).status());
      answeredAtMillis.add((System.nanoTime() - stopAsked) / 1_000_000);
    }
    assertThat(closed).as("still draining after %s ms", answeredAtMillis.getLast()).isNotDone();
    assertThat(answers).as("every request of the drain answered").isNotEmpty().containsOnly(200);
    assertThat(answeredAtMillis.getLast()).isGreaterThanOrEqualTo(DRAIN.minusMillis(600).toMillis());

    closed.get();
    long tookMillis = (System.nanoTime() - stopAsked) / 1_000_000;
    assertThat(tookMillis).as("the stop waited out the drain delay").isGreaterThanOrEqualTo(DRAIN.toMillis());
    assertThat(stopping.isActive()).isFalse();
    assertThatThrownBy(() -> http.get(PING, Map.of())).as("the server is stopped afterwards")
        .isInstanceOf(IllegalStateException.class);
    assertThat(listener.seen).contains(during);
    // the listener committed what it read during the drain as it stopped
    assertThat(TestKafka.committed(GROUP, new TopicPartition(TOPIC, duringRecord.partition())))
        .isGreaterThan(duringRecord.offset());
  }

  @Test
  void withNoDrainDelayItStopsAtOnce() {
    ConfigurableApplicationContext quick = start(Duration.ZERO);
    long stopAsked = System.nanoTime();
    quick.close();
    assertThat(Duration.ofNanos(System.nanoTime() - stopAsked)).isLessThan(DRAIN);
  }

  /** A service of the test's own: one ordinary endpoint and one listener that remembers what it read. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import({DrainingService.Ping.class, DrainingService.Listener.class})
  static class DrainingService {

    @RestController
    static class Ping {

      @GetMapping(PING)
      Map<String, String> ping() {
        return Map.of("pong", "yes");
      }
    }

    static class Listener {

      final List<String> seen = new CopyOnWriteArrayList<>();

      @KafkaListener(topics = TOPIC)
      void onRecord(String value) {
        seen.add(value);
      }
    }
  }
}
