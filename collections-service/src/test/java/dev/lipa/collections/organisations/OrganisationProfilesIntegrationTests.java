package dev.lipa.collections.organisations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.organisations.OrganisationDirectory;
import dev.lipa.common.organisations.OrganisationProfile;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Profiles published by auth-service reach this service's copy and the records' organisation objects. */
class OrganisationProfilesIntegrationTests extends CollectionsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static KafkaProducer<String, String> producer;

  @Autowired
  OrganisationDirectory directory;

  /** The directory listener's consumer group, as the listener names it. */
  @Value("${lipa.organisations.directory.group-id:${spring.application.name}-organisations}")
  String directoryGroup;

  @BeforeAll
  static void connect() {
    producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
        SharedInfra.kafkaBootstrapServers(), ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
  }

  @AfterAll
  static void close() {
    producer.close();
  }

  static OrganisationProfile profile(String org, long revision, String name) {
    Instant created = Instant.parse("2025-03-01T08:00:00Z");
    return new OrganisationProfile(org, 4242, name, "254700000001", "ops@duka.example", "LP00000042AB", "sandbox",
        null, null, true, List.of(), null, null, created, created.plusSeconds(revision), revision);
  }

  static RecordMetadata publish(OrganisationProfile profile) throws Exception {
    EventEnvelope event = EventEnvelope.create(OrganisationProfile.UPSERTED, profile.organisationId(),
        profile.toEventData());
    return producer.send(new ProducerRecord<>(Topics.ORGANISATIONS, profile.organisationId(),
        JSON.writeValueAsString(event))).get();
  }

  @Test
  void showsThePublishedProfileInStkRecords() throws Exception {
    String org = newOrganisation();
    create(org, body("0712345678"));
    JsonNode before = http().get(ALL, as(org)).json().get("data").get(0).get("organisation");
    assertThat(before.get("uuid").asString()).isEqualTo(org);
    assertThat(before.get("name").isNull()).isTrue();

    publish(profile(org, 2, "Duka Kuu"));

    await().atMost(Duration.ofSeconds(20)).until(() -> directory.byId(OrganisationId.of(org)).isPresent());
    JsonNode organisation = http().get(ALL, as(org)).json().get("data").get(0).get("organisation");
    assertThat(organisation.propertyNames()).containsExactly("id", "uuid", "name", "phoneNumber", "email",
        "uniqueReference", "createdAt", "updatedAt");
    assertThat(organisation.get("id").asLong()).isEqualTo(4242);
    assertThat(organisation.get("name").asString()).isEqualTo("Duka Kuu");
    assertThat(organisation.get("createdAt").asString()).isEqualTo("2025-03-01T11:00:00.000000");
  }

  @Test
  void ignoresAnOlderRevisionPublishedLate() throws Exception {
    String org = UUID.randomUUID().toString();
    publish(profile(org, 4, "Newest"));
    await().atMost(Duration.ofSeconds(20)).until(() -> directory.byId(OrganisationId.of(org)).map(p -> p.revision() == 4)
        .orElse(false));

    RecordMetadata stale = publish(profile(org, 2, "Stale"));
    // the directory's consumer has read the stale revision (committed past it), so what is kept is its decision
    TestKafka.awaitConsumed(directoryGroup, stale, Duration.ofSeconds(20));

    OrganisationProfile kept = directory.byId(OrganisationId.of(org)).orElseThrow();
    assertThat(kept.revision()).isEqualTo(4);
    assertThat(kept.name()).isEqualTo("Newest");
  }
}
