package dev.lipa.collections.bank;

import static dev.lipa.common.environment.StackEnvironment.SANDBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pins the exact JSON of the records a bank collection produces: {@code bank.collection.received} on
 * payments.collections.v1 (payouts credits it) and the merchant's {@code callback.requested} on payments.callbacks.v1,
 * whose body is the spec's record. Only the generated eventId is filled in by name.
 */
class BankOutboxEventsTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();
  private static final Instant RECEIVED_AT = Instant.parse("2026-03-01T09:00:00.123456Z");
  private static final Instant NOW = Instant.parse("2026-03-01T09:00:01Z");
  private static final UUID UUID_OF_RECORD = UUID.fromString("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d");
  private static final UUID CALLBACK_ID = UUID.fromString("c0ffee00-1111-4222-8333-444455556666");
  private final BankOutboxEvents events = new BankOutboxEvents(JSON, Clock.fixed(NOW, ZoneOffset.UTC),
      new CollectionsProperties(ZoneId.of("Africa/Nairobi"), null, null, null, null, null, null, null), SANDBOX);

  private static BankCollection deposit(String callbackUrl) {
    return new BankCollection(4711, UUID_OF_RECORD, OrganisationId.of("org-1"), "kcb", "CUST-1", "FT26060ABCDE", "RTGS",
        LocalDate.parse("2026-03-01"), "1100223344", new BigDecimal("99.50"), "School fees",
        callbackUrl, callbackUrl == null ? null : CALLBACK_ID, RECEIVED_AT, RECEIVED_AT);
  }

  private static void assertPinned(OutboxEvent event, String topic, String pinned) {
    assertThat(event.topic()).isEqualTo(topic);
    assertThat(event.key()).isEqualTo(UUID_OF_RECORD.toString());
    assertThat(event.payload()).isEqualTo(pinned.replace("<eventId>", event.eventId()));
  }

  @Test
  void receivedAndTheCallbackToTheOrganisationsCollectionCallbackUrl() {
    List<OutboxEvent> outbox = events.of(deposit("https://merchant.example/bank"));

    assertThat(outbox).hasSize(2);
    assertPinned(outbox.get(0), Topics.COLLECTIONS, """
        {"eventId":"<eventId>","type":"bank.collection.received","version":1,\
        "occurredAt":"2026-03-01T09:00:01Z","organisationId":"org-1",\
        "data":{"requestId":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","source":"kcb",\
        "transactionref":"FT26060ABCDE","accountnumber":"1100223344","amount":99.50,\
        "transactiondate":"2026-03-01","customerid":"CUST-1","paymentmode":"RTGS","description":"School fees"}}""");
    assertPinned(outbox.get(1), Topics.CALLBACKS, """
        {"eventId":"<eventId>","type":"callback.requested","version":1,"occurredAt":"2026-03-01T09:00:01Z",\
        "organisationId":"org-1","data":{"callbackId":"c0ffee00-1111-4222-8333-444455556666",\
        "requestId":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","url":"https://merchant.example/bank","kind":"bank",\
        "body":{"id":4711,"uuid":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","customerid":"CUST-1",\
        "transactionref":"FT26060ABCDE","paymentmode":"RTGS","transactiondate":"2026-03-01",\
        "accountnumber":"1100223344","amount":"99.50","description":"School fees",\
        "createdAt":"2026-03-01T12:00:00.123456","updatedAt":"2026-03-01T12:00:00.123456"}}}""");
  }

  @Test
  void receivedAloneWithoutACollectionCallbackUrl() {
    List<OutboxEvent> outbox = events.of(deposit(null));

    assertThat(outbox).hasSize(1);
    assertPinned(outbox.getFirst(), Topics.COLLECTIONS, """
        {"eventId":"<eventId>","type":"bank.collection.received","version":1,\
        "occurredAt":"2026-03-01T09:00:01Z","organisationId":"org-1",\
        "data":{"requestId":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","source":"kcb",\
        "transactionref":"FT26060ABCDE","accountnumber":"1100223344","amount":99.50,\
        "transactiondate":"2026-03-01","customerid":"CUST-1","paymentmode":"RTGS","description":"School fees"}}""");
  }
}
