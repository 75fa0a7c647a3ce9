package dev.lipa.collections.stk.rail.daraja;

import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import dev.lipa.rails.daraja.StkQueryResult;
import dev.lipa.rails.daraja.result.FailureReason;
import dev.lipa.rails.daraja.result.ResultCodes;
import dev.lipa.rails.daraja.result.ResultMeaning;

/**
 * What an STK Query answer means for an overdue push: it settles the push only when it is a documented verdict
 * ({@link ResultCodes#stk}) about exactly the push that was sent (the CheckoutRequestID asked about, Daraja's
 * MerchantRequestID of it) and the push is the one that was sent (its organisation, amount and phone number are the
 * request log's). STK Query names no amount or receipt, so what was sent is checked against the push instead.
 */
final class StkQueryVerdicts {

  /** What to do with the push. */
  sealed interface Verdict {

    /** Settle the push with this outcome (through the outcome handler's compare-and-set). */
    record Settle(StkRailOutcome outcome) implements Verdict {
    }

    /** No verdict yet ("being processed", no answer, a code that is no verdict): ask again later. */
    record Wait(String why) implements Verdict {
    }

    /** Not this push's answer, or not this push: settle nothing, and tell operators. */
    record Refuse(String why) implements Verdict {
    }
  }

  private StkQueryVerdicts() {
  }

  static Verdict of(StkPrompt prompt, StkRequestLog.Entry sent, StkQueryResult answer) {
    if (!sent.requestId().equals(prompt.requestId()) || !sent.organisationId().equals(prompt.organisationId())) {
      return new Verdict.Refuse("the request log's entry is another push's");
    }
    if (sent.amount().compareTo(prompt.amount()) != 0 || !sent.sentTo(prompt.phoneNumber())) {
      return new Verdict.Refuse("what was sent to Daraja (amount, phone number) is not this push's");
    }
    return switch (answer) {
      case StkQueryResult.StillProcessing(String code, String message) ->
          new Verdict.Wait("Daraja says " + code + " " + message);
      case StkQueryResult.NotAnswered(String reason) -> new Verdict.Wait("no answer: " + reason);
      case StkQueryResult.Completed completed -> completed(prompt, sent, completed);
    };
  }

  private static Verdict completed(StkPrompt prompt, StkRequestLog.Entry sent, StkQueryResult.Completed answer) {
    if (!sent.checkoutRequestId().equals(answer.checkoutRequestId())) {
      return new Verdict.Refuse("the answer is about CheckoutRequestID " + answer.checkoutRequestId() + ", not "
          + sent.checkoutRequestId());
    }
    if (sent.merchantRequestId() != null && answer.merchantRequestId() != null
        && !sent.merchantRequestId().equals(answer.merchantRequestId())) {
      return new Verdict.Refuse("the answer names MerchantRequestID " + answer.merchantRequestId() + ", not "
          + sent.merchantRequestId());
    }
    ResultMeaning meaning = ResultCodes.stk(answer.resultCode());
    if (meaning.outcome() == ResultMeaning.Outcome.SUCCEEDED) {
      // STK Query names no receipt: a success without one (docs/going-live.md, "Reconciliation")
      return new Verdict.Settle(outcome(prompt, answer, 0));
    }
    if (meaning.outcome() == ResultMeaning.Outcome.FAILED && meaning.reason() != FailureReason.UNRECOGNISED) {
      return new Verdict.Settle(outcome(prompt, answer, DarajaStkRail.failureCode(answer.resultCode())));
    }
    // a callback's undocumented code fails its push (Daraja calls back once, when it is done); a query's may be an
    // answer before the end, as 4999 is: it settles nothing, and the bounded questions bring it to operators
    return new Verdict.Wait("result code " + answer.resultCode() + " is no documented verdict");
  }

  private static StkRailOutcome outcome(StkPrompt prompt, StkQueryResult.Completed answer, int resultCode) {
    return new StkRailOutcome(prompt.organisationId(), prompt.requestId(), answer.merchantRequestId(),
        answer.checkoutRequestId(), 0, "Accepted", null, resultCode, answer.resultDesc(), null);
  }
}
