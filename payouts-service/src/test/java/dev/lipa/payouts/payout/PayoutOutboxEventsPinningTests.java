package dev.lipa.payouts.payout;

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
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The producer {@link PayoutOutboxEvents} pinned to committed JSON (src/test/resources/events) and checked against
 * docs/asyncapi.yaml: {@code <kind>.accepted}, {@code <kind>.succeeded}, {@code <kind>.failed} and the
 * {@code callback.requested} of each kind (send money, till, paybill).
 */
class PayoutOutboxEventsPinningTests {

  private static final Instant ACCEPTED_AT = Instant.parse("2026-06-01T10:00:00Z");
  private static final Instant NOW = Instant.parse("2026-06-01T10:00:03.250Z");
  private static final RequestId REQUEST_ID = RequestId.parse("2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e");
  private static final UUID CALLBACK_ID = UUID.fromString("c0ffee00-1111-4222-8333-444455556666");
  private final PayoutOutboxEvents events = new PayoutOutboxEvents(PlatformJson.builder().build(),
      Clock.fixed(NOW, ZoneOffset.UTC), SANDBOX);

  private static PayoutRequest request(PayoutKind kind) {
    return switch (kind) {
      case SEND_MONEY -> new PayoutRequest(kind, Currency.TZS, new BigDecimal("1000"),
          "https://merchant.example/callbacks/b2c", "PAY-17", "255712345678", null, null, null, null, "wages",
          "Asha", "Juma", null, "TZ-TIGO-B2C");
      case TILL -> new PayoutRequest(kind, Currency.KSH, new BigDecimal("120"), "https://merchant.example/till",
          null, null, "174379", null, "stock", null, null, null, null, null, null);
      case PAYBILL -> new PayoutRequest(kind, Currency.KSH, new BigDecimal("2500"),
          "https://merchant.example/paybill", "RENT-6", null, "888880", "INV-7", "rent", "June", null, null, null,
          null, null);
    };
  }

  private static Payout pending(PayoutKind kind) {
    return Payout.accept(42, REQUEST_ID, OrganisationId.of("0b8c5a55-0b0b-4f0e-8f5e-1c2d3e4f5a6b"), request(kind),
        "12345-67890123-1", ACCEPTED_AT);
  }

  private static Payout restored(Payout payout) {
    return Payout.restore(payout.details(), payout.status(), payout.updatedAt(), payout.result());
  }

  private static String file(String type, PayoutKind kind) {
    return "events/" + type.replace("<kind>", kind.code()) + ".v1.json";
  }

  private static void assertOutcome(List<OutboxEvent> outbox, PayoutKind kind, String outcome) {
    assertThat(outbox).extracting(OutboxEvent::topic).containsExactly(Topics.PAYOUTS, Topics.CALLBACKS);
    assertThat(outbox).extracting(OutboxEvent::key).containsOnly(REQUEST_ID.toString());
    PinnedEvents.assertPinned(Topics.PAYOUTS, outbox.get(0).payload(), file("<kind>." + outcome, kind));
    PinnedEvents.assertPinned(Topics.CALLBACKS, outbox.get(1).payload(),
        file("callback.requested.<kind>." + outcome, kind));
  }

  @ParameterizedTest
  @EnumSource(PayoutKind.class)
  void accepted(PayoutKind kind) {
    List<OutboxEvent> outbox = events.toOutbox(pending(kind).events());

    assertThat(outbox).extracting(OutboxEvent::topic).containsExactly(Topics.PAYOUTS);
    PinnedEvents.assertPinned(Topics.PAYOUTS, outbox.getFirst().payload(), file("<kind>.accepted", kind));
  }

  @ParameterizedTest
  @EnumSource(PayoutKind.class)
  void succeededAndItsCallbackRequest(PayoutKind kind) {
    Payout payout = restored(pending(kind));
    payout.succeed(new Payout.Result("AG_20260601_0000abcd", 0, "Accept the service request successfully.", 0,
        "The service request is processed successfully.", "SFL1ABCDEF", "Asha Juma", CALLBACK_ID), NOW);

    assertOutcome(events.toOutbox(payout.events()), kind, "succeeded");
  }

  @ParameterizedTest
  @EnumSource(PayoutKind.class)
  void failedAndItsCallbackRequest(PayoutKind kind) {
    Payout payout = restored(pending(kind));
    payout.fail(new Payout.Result("AG_20260601_0000abcd", 0, "Accept the service request successfully.", 2001,
        "The initiator information is invalid.", null, null, CALLBACK_ID), NOW);

    assertOutcome(events.toOutbox(payout.events()), kind, "failed");
  }
}
