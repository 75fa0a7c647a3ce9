package dev.lipa.collections.stk;

import static dev.lipa.common.environment.StackEnvironment.SANDBOX;
import static dev.lipa.collections.stk.StkPushFixtures.ACCEPTED_AT;
import static dev.lipa.collections.stk.StkPushFixtures.REFERENCE;
import static dev.lipa.collections.stk.StkPushFixtures.restored;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.testsupport.PinnedEvents;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The producer {@link StkOutboxEvents} pinned to committed JSON (src/test/resources/events) and checked against
 * docs/asyncapi.yaml: {@code stk.accepted}, {@code stk.succeeded}, {@code stk.failed} and the STK
 * {@code callback.requested}.
 */
class StkOutboxEventsPinningTests {

  private static final Instant NOW = Instant.parse("2026-03-01T09:00:03.120Z");
  private static final RequestId REQUEST_ID = RequestId.parse("9a2b7c1d-4e5f-4a6b-8c7d-0e1f2a3b4c5d");
  private static final OrganisationId ORGANISATION = OrganisationId.of("0b8c5a55-0b0b-4f0e-8f5e-1c2d3e4f5a6b");
  private static final UUID CALLBACK_ID = UUID.fromString("3d1f0e4b-7c55-4e1a-9b0e-5a9c2d7e8f10");
  private final StkOutboxEvents events = new StkOutboxEvents(PlatformJson.builder().build(),
      Clock.fixed(NOW, ZoneOffset.UTC), SANDBOX);

  private static StkPush pending(StkCurrency currency, String phone, MobileCountry country, String amount) {
    StkPushRequest request = new StkPushRequest("Order 42", MobileNumber.parse(phone, country).orElseThrow(),
        new BigDecimal(amount), "INV42", "https://merchant.example/callbacks/stk", currency, "INV42-1");
    return StkPush.accept(7L, REQUEST_ID, ORGANISATION, request, ACCEPTED_AT);
  }

  private static StkPush kenyan() {
    return pending(StkCurrency.KSH, "0708374149", MobileCountry.KENYA, "150");
  }

  private static void assertKeyed(List<OutboxEvent> outbox, String... topics) {
    assertThat(outbox).extracting(OutboxEvent::topic).containsExactly(topics);
    assertThat(outbox).extracting(OutboxEvent::key).containsOnly(REQUEST_ID.toString());
  }

  @Test
  void stkAccepted() {
    List<OutboxEvent> outbox = events.toOutbox(kenyan().events());

    assertKeyed(outbox, Topics.COLLECTIONS);
    PinnedEvents.assertPinned(Topics.COLLECTIONS, outbox.getFirst().payload(), "events/stk.accepted.v1.json");
  }

  @Test
  void stkAcceptedInUgandaWithoutAReferenceId() {
    StkPushRequest request = new StkPushRequest("Fees", MobileNumber.parse("0772123456", MobileCountry.UGANDA)
        .orElseThrow(), new BigDecimal("20000"), null, "https://merchant.example/callbacks/stk", StkCurrency.UGX, null);
    List<OutboxEvent> outbox = events.toOutbox(StkPush.accept(8L, REQUEST_ID, ORGANISATION, request, ACCEPTED_AT)
        .events());

    PinnedEvents.assertPinned(Topics.COLLECTIONS, outbox.getFirst().payload(), "events/stk.accepted.ugx.v1.json");
  }

  @Test
  void stkSucceededAndItsCallbackRequest() {
    StkPush push = restored(kenyan());
    push.succeed(REFERENCE, "The service request is processed successfully.", "NLJ7RT61SV", CALLBACK_ID, NOW);

    List<OutboxEvent> outbox = events.toOutbox(push.events());

    assertKeyed(outbox, Topics.COLLECTIONS, Topics.CALLBACKS);
    PinnedEvents.assertPinned(Topics.COLLECTIONS, outbox.get(0).payload(), "events/stk.succeeded.v1.json");
    PinnedEvents.assertPinned(Topics.CALLBACKS, outbox.get(1).payload(),
        "events/callback.requested.stk.succeeded.v1.json");
  }

  @Test
  void stkSucceededConfirmedByStkQueryHasNoReceipt() {
    StkPush push = restored(kenyan());
    push.confirmPaidWithoutReceipt(REFERENCE, "The service request is processed successfully.", CALLBACK_ID, NOW);

    List<OutboxEvent> outbox = events.toOutbox(push.events());

    PinnedEvents.assertPinned(Topics.COLLECTIONS, outbox.get(0).payload(), "events/stk.succeeded.no-receipt.v1.json");
    PinnedEvents.assertPinned(Topics.CALLBACKS, outbox.get(1).payload(),
        "events/callback.requested.stk.succeeded.v1.json");
  }

  @Test
  void stkFailedAndItsCallbackRequest() {
    StkPush push = restored(kenyan());
    push.fail(REFERENCE, 1032, "Request cancelled by user", CALLBACK_ID, NOW);

    List<OutboxEvent> outbox = events.toOutbox(push.events());

    assertKeyed(outbox, Topics.COLLECTIONS, Topics.CALLBACKS);
    PinnedEvents.assertPinned(Topics.COLLECTIONS, outbox.get(0).payload(), "events/stk.failed.v1.json");
    PinnedEvents.assertPinned(Topics.CALLBACKS, outbox.get(1).payload(),
        "events/callback.requested.stk.failed.v1.json");
  }
}
