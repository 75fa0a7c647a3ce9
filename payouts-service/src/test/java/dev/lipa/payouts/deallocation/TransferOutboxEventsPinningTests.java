package dev.lipa.payouts.deallocation;

import static dev.lipa.common.environment.StackEnvironment.SANDBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.testsupport.PinnedEvents;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * The producer {@link TransferOutboxEvents} pinned to committed JSON (src/test/resources/events) and checked against
 * docs/asyncapi.yaml: {@code allocation.succeeded} (the parent's event) and {@code deallocation.succeeded} (the
 * sub-account's), amounts with their cents.
 */
class TransferOutboxEventsPinningTests {

  private static final Instant CREATED = Instant.parse("2026-06-01T10:00:00Z");
  private static final Instant NOW = Instant.parse("2026-06-01T10:00:00.480Z");
  private static final RequestId REQUEST_ID = RequestId.parse("5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b");
  private static final OrganisationId PARENT = OrganisationId.of("0b8c5a55-0b0b-4f0e-8f5e-1c2d3e4f5a6b");
  private static final OrganisationId SUB_ACCOUNT = OrganisationId.of("7a2d3c9f-2222-4333-8444-a55566667777");
  private final TransferOutboxEvents events = new TransferOutboxEvents(PlatformJson.builder().build(),
      Clock.fixed(NOW, ZoneOffset.UTC), SANDBOX);

  private static Transfer completed(Transfer.Type type, Currency currency, String amount, String referenceId,
      OrganisationId initiatedBy) {
    return new Transfer(REQUEST_ID, type, PARENT, SUB_ACCOUNT, initiatedBy, currency, new BigDecimal(amount),
        referenceId, Transfer.Status.PENDING, CREATED, CREATED).with(Transfer.Status.SUCCESS, NOW);
  }

  @Test
  void allocationSucceeded() {
    OutboxEvent event = events.completed(completed(Transfer.Type.ALLOCATION, Currency.KSH, "5000", "ALLOC-1",
        PARENT));

    assertThat(event.topic()).isEqualTo(Topics.PAYOUTS);
    assertThat(event.key()).isEqualTo(REQUEST_ID.toString());
    PinnedEvents.assertPinned(Topics.PAYOUTS, event.payload(), "events/allocation.succeeded.v1.json");
  }

  @Test
  void deallocationSucceeded() {
    OutboxEvent event = events.completed(completed(Transfer.Type.DEALLOCATION, Currency.USD, "12.50", null,
        SUB_ACCOUNT));

    assertThat(event.key()).isEqualTo(REQUEST_ID.toString());
    PinnedEvents.assertPinned(Topics.PAYOUTS, event.payload(), "events/deallocation.succeeded.v1.json");
  }
}
