package dev.lipa.collections.bank;

import static dev.lipa.common.environment.StackEnvironment.SANDBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.testsupport.PinnedEvents;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The producer {@link BankOutboxEvents} pinned to committed JSON (src/test/resources/events) and checked against
 * docs/asyncapi.yaml: {@code bank.collection.received} and the bank {@code callback.requested}, whose body is the
 * API's record with its amount as a two-decimal string.
 */
class BankOutboxEventsPinningTests {

  private static final Instant RECEIVED_AT = Instant.parse("2026-03-01T10:15:00.002345Z");
  private static final UUID RECORD = UUID.fromString("4d3c2b1a-0f9e-4d8c-b7a6-958473625140");
  private static final UUID CALLBACK_ID = UUID.fromString("c0ffee00-1111-4222-8333-444455556666");
  private final BankOutboxEvents events = new BankOutboxEvents(PlatformJson.builder().build(),
      Clock.fixed(Instant.parse("2026-03-01T10:15:00.010Z"), ZoneOffset.UTC),
      new CollectionsProperties(ZoneId.of("Africa/Nairobi"), null, null, null, null, null, null, null), SANDBOX);

  private static BankCollection deposit(String source, String callbackUrl, String customerid) {
    return new BankCollection(4711, RECORD, OrganisationId.of("0b8c5a55-0b0b-4f0e-8f5e-1c2d3e4f5a6b"), source,
        customerid, "FT26060ABCDE", customerid == null ? null : "RTGS", LocalDate.parse("2026-03-01"), "1100223344",
        new BigDecimal("1500.25"), customerid == null ? null : "Invoice 9", callbackUrl,
        callbackUrl == null ? null : CALLBACK_ID, RECEIVED_AT, RECEIVED_AT);
  }

  @Test
  void bankCollectionReceivedAndItsCallbackRequest() {
    List<OutboxEvent> outbox = events.of(deposit("kcb", "https://merchant.example/callbacks/bank", "C-1"));

    assertThat(outbox).extracting(OutboxEvent::topic).containsExactly(Topics.COLLECTIONS, Topics.CALLBACKS);
    assertThat(outbox).extracting(OutboxEvent::key).containsOnly(RECORD.toString());
    PinnedEvents.assertPinned(Topics.COLLECTIONS, outbox.get(0).payload(), "events/bank.collection.received.v1.json");
    PinnedEvents.assertPinned(Topics.CALLBACKS, outbox.get(1).payload(), "events/callback.requested.bank.v1.json");
  }

  @Test
  void aSandboxDepositWithoutTheOptionalFieldsOrACallback() {
    List<OutboxEvent> outbox = events.of(deposit("sandbox", null, null));

    assertThat(outbox).hasSize(1);
    PinnedEvents.assertPinned(Topics.COLLECTIONS, outbox.getFirst().payload(),
        "events/bank.collection.received.sandbox.v1.json");
  }
}
