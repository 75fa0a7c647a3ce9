package dev.lipa.collections.stk;

import static dev.lipa.collections.stk.StkPushFixtures.ACCEPTED_AT;
import static dev.lipa.collections.stk.StkPushFixtures.ORGANISATION;
import static dev.lipa.collections.stk.StkPushFixtures.REFERENCE;
import static dev.lipa.collections.stk.StkPushFixtures.aPendingStkPush;
import static dev.lipa.collections.stk.StkPushFixtures.restored;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StkPushTests {

  private static final Instant LATER = ACCEPTED_AT.plusSeconds(3);

  @Test
  void acceptingRecordsAPendingPushAndItsAcceptedEvent() {
    StkPush push = aPendingStkPush();

    assertThat(push.status()).isEqualTo(StkStatus.PENDING);
    assertThat(push.updatedAt()).isEqualTo(ACCEPTED_AT);
    assertThat(push.railReference()).isNull();
    assertThat(push.result()).isNull();
    assertThat(push.events()).singleElement().isEqualTo(new StkEvent.Accepted(ORGANISATION, push.requestId(), "ref-1",
        "254712345678", new BigDecimal("10"), StkCurrency.KSH));
  }

  @Test
  void succeedingMovesPendingToSuccessOnceWithTheDomainEventAndTheCallbackRequest() {
    StkPush push = restored(aPendingStkPush());
    UUID callbackId = UUID.randomUUID();

    push.succeed(REFERENCE, "The service request is processed successfully.", "NLJ7RT61SV", callbackId, LATER);

    assertThat(push.status()).isEqualTo(StkStatus.SUCCESS);
    assertThat(push.updatedAt()).isEqualTo(LATER);
    assertThat(push.railReference()).isEqualTo(REFERENCE);
    assertThat(push.result()).isEqualTo(
        new StkPush.Result(0, "The service request is processed successfully.", "NLJ7RT61SV", callbackId));
    assertThat(push.events()).containsExactly(
        new StkEvent.Completed(ORGANISATION, push.requestId(), "ref-1", "254712345678", new BigDecimal("10"),
            StkCurrency.KSH, StkStatus.SUCCESS, 0, "The service request is processed successfully.", "NLJ7RT61SV"),
        new StkEvent.CallbackRequested(ORGANISATION, push.requestId(), callbackId, "https://merchant.example/cb",
            StkStatus.SUCCESS, new BigDecimal("10"), StkCurrency.KSH, "254712345678"));
  }

  @Test
  void aPaymentConfirmedByTheRailsQuerySucceedsWithoutAReceiptAndSaysSoInItsEvent() {
    StkPush push = restored(aPendingStkPush());
    UUID callbackId = UUID.randomUUID();

    push.confirmPaidWithoutReceipt(REFERENCE, "The service request is processed successfully.", callbackId, LATER);

    assertThat(push.status()).isEqualTo(StkStatus.SUCCESS);
    assertThat(push.result()).isEqualTo(
        new StkPush.Result(0, "The service request is processed successfully.", null, callbackId));
    assertThat(push.events()).first().isEqualTo(new StkEvent.Completed(ORGANISATION, push.requestId(), "ref-1",
        "254712345678", new BigDecimal("10"), StkCurrency.KSH, StkStatus.SUCCESS, 0,
        "The service request is processed successfully.", null));
    assertThatThrownBy(() -> push.succeed(REFERENCE, "ok", "NLJ7RT61SV", UUID.randomUUID(), LATER))
        .as("the callback's receipt arriving afterwards is no second transition")
        .isInstanceOf(IllegalTransitionException.class);
  }

  @Test
  void failingMovesPendingToFailedWithoutAReceipt() {
    StkPush push = restored(aPendingStkPush());

    push.fail(REFERENCE, 1032, "Request cancelled by user", UUID.randomUUID(), LATER);

    assertThat(push.status()).isEqualTo(StkStatus.FAILED);
    assertThat(push.result().resultCode()).isEqualTo(1032);
    assertThat(push.result().receipt()).isNull();
    assertThat(push.events()).hasSize(2).first().isInstanceOfSatisfying(StkEvent.Completed.class,
        completed -> assertThat(completed.status()).isEqualTo(StkStatus.FAILED));
  }

  @Test
  void refusesADuplicateSuccess() {
    StkPush push = restored(aPendingStkPush());
    push.succeed(REFERENCE, "ok", "NLJ7RT61SV", UUID.randomUUID(), LATER);

    assertThatThrownBy(() -> push.succeed(REFERENCE, "ok", "NLJ7RT61SV", UUID.randomUUID(), LATER))
        .isInstanceOf(IllegalTransitionException.class);
    assertThat(push.events()).hasSize(2);
  }

  @Test
  void refusesALateFailureAfterSuccess() {
    StkPush push = restored(aPendingStkPush());
    push.succeed(REFERENCE, "ok", "NLJ7RT61SV", UUID.randomUUID(), LATER);

    assertThatThrownBy(() -> push.fail(REFERENCE, 1037, "DS timeout user cannot be reached", UUID.randomUUID(),
        LATER.plusSeconds(60))).isInstanceOf(IllegalTransitionException.class);
    assertThat(push.status()).isEqualTo(StkStatus.SUCCESS);
    assertThat(push.updatedAt()).isEqualTo(LATER);
  }

  @Test
  void refusesALateSuccessAfterFailure() {
    StkPush push = restored(aPendingStkPush());
    push.fail(REFERENCE, 1, "The balance is insufficient for the transaction.", UUID.randomUUID(), LATER);

    assertThatThrownBy(() -> push.succeed(REFERENCE, "ok", "NLJ7RT61SV", UUID.randomUUID(), LATER))
        .isInstanceOf(IllegalTransitionException.class);
    assertThat(push.status()).isEqualTo(StkStatus.FAILED);
  }

  @Test
  void refusesAnyTransitionOfAStoredCompletedPush() {
    StkPush completed = restored(aPendingStkPush());
    completed.succeed(REFERENCE, "ok", "NLJ7RT61SV", UUID.randomUUID(), LATER);
    StkPush stored = restored(completed);

    assertThatThrownBy(() -> stored.fail(REFERENCE, 2001, "The initiator information is invalid.", UUID.randomUUID(),
        LATER)).isInstanceOf(IllegalTransitionException.class);
    assertThat(stored.events()).isEmpty();
  }

  @Test
  void refusesAFailureCarryingTheSuccessCode() {
    StkPush push = restored(aPendingStkPush());

    assertThatThrownBy(() -> push.fail(REFERENCE, 0, "?", UUID.randomUUID(), LATER))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(push.status()).isEqualTo(StkStatus.PENDING);
  }
}
