package dev.lipa.payouts.payout;

import static dev.lipa.common.environment.StackEnvironment.SANDBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pins the exact JSON of the records payouts produce (on payments.payouts.v1 and payments.callbacks.v1): they are
 * contracts other services and merchants read, and the outbox republishes the text it stored, so a renamed or
 * reordered field fails here first. Only the generated eventId is filled in by name.
 */
class PayoutOutboxEventsTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();
  private static final Instant ACCEPTED_AT = Instant.parse("2026-06-01T10:00:00Z");
  private static final Instant NOW = Instant.parse("2026-06-01T10:00:03Z");
  private static final RequestId REQUEST_ID = RequestId.parse("0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d");
  private static final UUID CALLBACK_ID = UUID.fromString("c0ffee00-1111-4222-8333-444455556666");
  private final PayoutOutboxEvents events = new PayoutOutboxEvents(JSON, Clock.fixed(NOW, ZoneOffset.UTC), SANDBOX);

  @Test
  void aLiveStackWritesTheSameRecordsToTheLiveTopics() {
    Payout payout = restored(pending(kenyan()));
    payout.succeed(success(), NOW);
    PayoutOutboxEvents live = new PayoutOutboxEvents(JSON, Clock.fixed(NOW, ZoneOffset.UTC), StackEnvironment.LIVE);

    List<OutboxEvent> outbox = live.toOutbox(payout.events());

    assertThat(outbox).extracting(OutboxEvent::topic)
        .containsExactly("live.payments.payouts.v1", "live.payments.callbacks.v1");
  }

  private static Payout pending(PayoutRequest request) {
    return Payout.accept(42, REQUEST_ID, OrganisationId.of("org-1"), request, "12345-67890123-1", ACCEPTED_AT);
  }

  private static Payout restored(Payout payout) {
    return Payout.restore(payout.details(), payout.status(), payout.updatedAt(), payout.result());
  }

  private static PayoutRequest kenyan() {
    return new PayoutRequest(PayoutKind.SEND_MONEY, Currency.KSH, new BigDecimal("250"),
        "https://merchant.example/callbacks/b2c", "pay-7", "254712345678", null, null, "salary", "June", null, null,
        null, null, null);
  }

  private static PayoutRequest tanzanian() {
    return new PayoutRequest(PayoutKind.SEND_MONEY, Currency.TZS, new BigDecimal("1000"),
        "https://merchant.example/cb", null, "255712345678", null, null, null, null, "wages", "Asha", "Juma", null,
        "TZ-TIGO-B2C");
  }

  private static PayoutRequest business(PayoutKind kind) {
    return new PayoutRequest(kind, Currency.KSH, new BigDecimal("120"), "https://merchant.example/till", null,
        null, "174379", "INV-7", "stock", null, null, null, null, null, null);
  }

  private static Payout.Result success() {
    return new Payout.Result("AG_20260601_0000abcd", 0, "Accept the service request successfully.", 0,
        "The service request is processed successfully.", "SFL1ABCDEF", "254712345678 - Jane Doe", CALLBACK_ID);
  }

  private static Payout.Result failure() {
    return new Payout.Result("AG_20260601_0000abcd", 0, "Accept the service request successfully.", 2001,
        "The initiator information is invalid.", null, null, CALLBACK_ID);
  }

  private static void assertPinned(OutboxEvent event, String topic, String pinned) {
    assertThat(event.topic()).isEqualTo(topic);
    assertThat(event.key()).isEqualTo(REQUEST_ID.toString());
    assertThat(event.payload()).isEqualTo(pinned.replace("<eventId>", event.eventId()));
  }

  @Nested
  class SendMoney {

    @Test
    void accepted() {
      List<OutboxEvent> outbox = events.toOutbox(pending(kenyan()).events());

      assertThat(outbox).hasSize(1);
      assertPinned(outbox.getFirst(), Topics.PAYOUTS, """
          {"eventId":"<eventId>","type":"sendmoney.accepted","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "referenceId":"pay-7","kind":"sendmoney","amount":250,"currency":"KSH","status":"PENDING",\
          "phoneNumber":"254712345678","serviceCode":null,"receiverFirstName":null,"receiverLastName":null,\
          "customerName":null}}""");
    }

    @Test
    void acceptedInTanzaniaCarriesTheReceiverAndTheNetwork() {
      assertPinned(events.toOutbox(pending(tanzanian()).events()).getFirst(), Topics.PAYOUTS, """
          {"eventId":"<eventId>","type":"sendmoney.accepted","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "referenceId":null,"kind":"sendmoney","amount":1000,"currency":"TZS","status":"PENDING",\
          "phoneNumber":"255712345678","serviceCode":"TZ-TIGO-B2C","receiverFirstName":"Asha",\
          "receiverLastName":"Juma","customerName":null}}""");
    }

    @Test
    void succeededAndItsCallback() {
      Payout payout = restored(pending(kenyan()));
      payout.succeed(success(), NOW);

      List<OutboxEvent> outbox = events.toOutbox(payout.events());

      assertThat(outbox).hasSize(2);
      assertPinned(outbox.get(0), Topics.PAYOUTS, """
          {"eventId":"<eventId>","type":"sendmoney.succeeded","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "referenceId":"pay-7","kind":"sendmoney","amount":250,"currency":"KSH","status":"SUCCESS",\
          "phoneNumber":"254712345678","serviceCode":null,"receiverFirstName":null,"receiverLastName":null,\
          "customerName":null,"resultCode":0,\
          "resultDescription":"The service request is processed successfully.",\
          "transactionReceipt":"SFL1ABCDEF","conversationId":"AG_20260601_0000abcd"}}""");
      assertPinned(outbox.get(1), Topics.CALLBACKS, """
          {"eventId":"<eventId>","type":"callback.requested","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"callbackId":"c0ffee00-1111-4222-8333-444455556666",\
          "requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d","url":"https://merchant.example/callbacks/b2c",\
          "kind":"sendmoney","body":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "phoneNumber":"254712345678","status":"SUCCESS","amount":250}}}""");
    }

    @Test
    void failedAndItsCallback() {
      Payout payout = restored(pending(kenyan()));
      payout.fail(failure(), NOW);

      List<OutboxEvent> outbox = events.toOutbox(payout.events());

      assertThat(outbox).hasSize(2);
      assertPinned(outbox.get(0), Topics.PAYOUTS, """
          {"eventId":"<eventId>","type":"sendmoney.failed","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "referenceId":"pay-7","kind":"sendmoney","amount":250,"currency":"KSH","status":"FAILED",\
          "phoneNumber":"254712345678","serviceCode":null,"receiverFirstName":null,"receiverLastName":null,\
          "customerName":null,"resultCode":2001,"resultDescription":"The initiator information is invalid.",\
          "transactionReceipt":null,"conversationId":"AG_20260601_0000abcd"}}""");
      assertPinned(outbox.get(1), Topics.CALLBACKS, """
          {"eventId":"<eventId>","type":"callback.requested","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"callbackId":"c0ffee00-1111-4222-8333-444455556666",\
          "requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d","url":"https://merchant.example/callbacks/b2c",\
          "kind":"sendmoney","body":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "phoneNumber":"254712345678","status":"FAILED","amount":250}}}""");
    }
  }

  @Nested
  class TillAndPaybill {

    @Test
    void aTillPaymentAcceptedSucceededAndItsCallback() {
      Payout payout = pending(business(PayoutKind.TILL));
      OutboxEvent accepted = events.toOutbox(payout.events()).getFirst();
      Payout stored = restored(payout);
      stored.succeed(success(), NOW);
      List<OutboxEvent> outbox = events.toOutbox(stored.events());

      assertPinned(accepted, Topics.PAYOUTS, """
          {"eventId":"<eventId>","type":"till.accepted","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "referenceId":null,"kind":"till","amount":120,"currency":"KSH","status":"PENDING",\
          "businessNumber":"174379","accountNumber":"INV-7"}}""");
      assertPinned(outbox.get(0), Topics.PAYOUTS, """
          {"eventId":"<eventId>","type":"till.succeeded","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "referenceId":null,"kind":"till","amount":120,"currency":"KSH","status":"SUCCESS",\
          "businessNumber":"174379","accountNumber":"INV-7","resultCode":0,\
          "resultDescription":"The service request is processed successfully.",\
          "transactionReceipt":"SFL1ABCDEF","conversationId":"AG_20260601_0000abcd"}}""");
      assertPinned(outbox.get(1), Topics.CALLBACKS, """
          {"eventId":"<eventId>","type":"callback.requested","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"callbackId":"c0ffee00-1111-4222-8333-444455556666",\
          "requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d","url":"https://merchant.example/till",\
          "kind":"till","body":{"accountNumber":"INV-7","businessNumber":"174379",\
          "requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d","amount":120,"status":"SUCCESS"}}}""");
    }

    @Test
    void aPaybillPaymentFailedAndItsCallback() {
      Payout payout = restored(pending(business(PayoutKind.PAYBILL)));
      payout.fail(failure(), NOW);

      List<OutboxEvent> outbox = events.toOutbox(payout.events());

      assertPinned(outbox.get(0), Topics.PAYOUTS, """
          {"eventId":"<eventId>","type":"paybill.failed","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d",\
          "referenceId":null,"kind":"paybill","amount":120,"currency":"KSH","status":"FAILED",\
          "businessNumber":"174379","accountNumber":"INV-7","resultCode":2001,\
          "resultDescription":"The initiator information is invalid.","transactionReceipt":null,\
          "conversationId":"AG_20260601_0000abcd"}}""");
      assertPinned(outbox.get(1), Topics.CALLBACKS, """
          {"eventId":"<eventId>","type":"callback.requested","version":1,"occurredAt":"2026-06-01T10:00:03Z",\
          "organisationId":"org-1","data":{"callbackId":"c0ffee00-1111-4222-8333-444455556666",\
          "requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d","url":"https://merchant.example/till",\
          "kind":"paybill","body":{"accountNumber":"INV-7","businessNumber":"174379",\
          "requestId":"0b7c1e2a-4d5f-4a6b-9c8d-7e6f5a4b3c2d","amount":120,"status":"FAILED"}}}""");
    }
  }
}
