package dev.lipa.rails.daraja.result;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Daraja's documented result codes and what they mean for the platform, per API family: the same code means different
 * things (2001 is the customer's wrong PIN on an STK push and our initiator's wrong credential on a B2C payment). The
 * table is in docs/going-live.md too; {@code ResultCodesTests} holds the two to each other.
 */
public final class ResultCodes {

  /** The API families whose codes differ. */
  public enum Family {
    /** STK push results (callback and STK Query). */
    STK,
    /** B2C and B2B results. */
    PAYOUT,
    /** Reversal results. */
    REVERSAL
  }

  private static final Map<String, ResultMeaning> STK = new LinkedHashMap<>();
  private static final Map<String, ResultMeaning> PAYOUT = new LinkedHashMap<>();
  private static final Map<String, ResultMeaning> REVERSAL = new LinkedHashMap<>();

  static {
    // STK (MpesaExpressSimulate, "Result codes")
    ok(STK, "The service request is processed successfully.");
    fail(STK, "1", FailureReason.INSUFFICIENT_FUNDS, true, "The balance is insufficient for the transaction.");
    fail(STK, "2", FailureReason.AMOUNT_BELOW_MINIMUM, false, "Declined due to limit rule.");
    fail(STK, "3", FailureReason.AMOUNT_ABOVE_MAXIMUM, false,
        "Declined due to limit rule: greater than the maximum transaction amount.");
    fail(STK, "4", FailureReason.DAILY_LIMIT_EXCEEDED, false,
        "Declined due to limit rule: would exceed daily transfer limit.");
    fail(STK, "8", FailureReason.BALANCE_LIMIT_EXCEEDED, false,
        "Declined due to limit rule: would exceed the maximum balance.");
    fail(STK, "17", FailureReason.REPEATED_TOO_SOON, true, "Rule limited.");
    fail(STK, "1001", FailureReason.SUBSCRIBER_BUSY, true,
        "Unable to lock subscriber, a transaction is already in process for the current subscriber.");
    fail(STK, "1019", FailureReason.EXPIRED, true, "Transaction has expired.");
    fail(STK, "1025", FailureReason.PROMPT_FAILED, false, "An error occurred while sending a push request.");
    fail(STK, "1032", FailureReason.CANCELLED, true, "Request cancelled by user.");
    fail(STK, "1037", FailureReason.UNREACHABLE, true, "DS timeout user cannot be reached.");
    // the same words as 1025, but a system error rather than a prompt too long: a new push can go through
    fail(STK, "9999", FailureReason.PROMPT_FAILED, true, "An error occurred while sending a push request.");
    fail(STK, "2001", FailureReason.WRONG_PIN, true, "The initiator information is invalid.");
    fail(STK, "2028", FailureReason.NOT_PERMITTED, false,
        "The request is not permitted according to product assignment.");
    fail(STK, "8006", FailureReason.CREDENTIAL_LOCKED, false, "The security credential is locked.");
    fail(STK, "SFC_IC0003", FailureReason.RECEIVER_INVALID, false, "The operator does not exist.");
    // not on the portal's page: STK Query's "still under processing", which integrators report from live Daraja (a
    // ResultCode in a 200 answer, unlike the documented 500.001.1001 error). Read as a failure it would fail pushes the
    // customer then pays; it is no verdict, so the push is asked about again
    STK.put("4999", new ResultMeaning("4999", ResultMeaning.Outcome.UNSETTLED, null, false,
        "The transaction is still under processing"));

    // B2C and B2B (BusinessToCustomer "Result Codes"; the generic codes 15, 17, 20, 26 of the older pages)
    ok(PAYOUT, "The service request is processed successfully.");
    fail(PAYOUT, "1", FailureReason.INSUFFICIENT_FUNDS, true, "The balance is insufficient for the transaction.");
    fail(PAYOUT, "2", FailureReason.AMOUNT_BELOW_MINIMUM, false, "Declined due to limit rule");
    fail(PAYOUT, "3", FailureReason.AMOUNT_ABOVE_MAXIMUM, false,
        "Declined due to limit rule: greater than the maximum transaction amount.");
    fail(PAYOUT, "4", FailureReason.DAILY_LIMIT_EXCEEDED, false,
        "Declined due to limit rule: would exceed daily transfer limit");
    fail(PAYOUT, "8", FailureReason.BALANCE_LIMIT_EXCEEDED, false,
        "Declined due to limit rule: would exceed the maximum balance.");
    fail(PAYOUT, "11", FailureReason.ACCOUNT_INACTIVE, false, "The DebitParty is in an invalid state.");
    PAYOUT.put("15", new ResultMeaning("15", ResultMeaning.Outcome.UNSETTLED, null, false, "Duplicate Detected"));
    fail(PAYOUT, "17", FailureReason.PROVIDER_FAILURE, true, "Internal Failure");
    fail(PAYOUT, "20", FailureReason.INITIATOR_INVALID, false, "Unresolved Initiator");
    fail(PAYOUT, "21", FailureReason.NOT_PERMITTED, false, "The initiator is not allowed to initiate this request");
    fail(PAYOUT, "26", FailureReason.PROVIDER_FAILURE, true, "Traffic blocking condition in place");
    fail(PAYOUT, "2001", FailureReason.INITIATOR_INVALID, false, "The initiator information is invalid.");
    fail(PAYOUT, "2006", FailureReason.ACCOUNT_INACTIVE, false,
        "Declined due to account rule: The account status does not allow this transaction.");
    fail(PAYOUT, "2028", FailureReason.NOT_PERMITTED, false,
        "The request is not permitted according to product assignment.");
    fail(PAYOUT, "2040", FailureReason.RECEIVER_NOT_REGISTERED, false,
        "Credit Party customer type (Unregistered or Registered Customer) can't be supported by the service.");
    fail(PAYOUT, "8006", FailureReason.CREDENTIAL_LOCKED, false, "The security credential is locked");
    fail(PAYOUT, "SFC_IC0003", FailureReason.RECEIVER_INVALID, false, "The operator does not exist.");

    // Reversal (Reversal "Result Codes")
    ok(REVERSAL, "The service request is processed successfully");
    fail(REVERSAL, "1", FailureReason.INSUFFICIENT_FUNDS, true, "The balance is insufficient");
    fail(REVERSAL, "11", FailureReason.ACCOUNT_INACTIVE, false, "The DebitParty is in an invalid state");
    fail(REVERSAL, "21", FailureReason.NOT_PERMITTED, false, "The initiator is not allowed to initiate");
    fail(REVERSAL, "2001", FailureReason.INITIATOR_INVALID, false, "The initiator information is invalid");
    fail(REVERSAL, "2006", FailureReason.ACCOUNT_INACTIVE, false, "Declined due to account rule");
    fail(REVERSAL, "2028", FailureReason.NOT_PERMITTED, false, "Not permitted according to product assignment");
    fail(REVERSAL, "8006", FailureReason.CREDENTIAL_LOCKED, false, "The security credential is locked");
    fail(REVERSAL, "R000001", FailureReason.ALREADY_REVERSED, false, "The transaction has already been reversed");
    fail(REVERSAL, "R000002", FailureReason.ORIGINAL_TRANSACTION_INVALID, false,
        "The OriginalTransactionID is invalid");
  }

  private ResultCodes() {
  }

  /** The meaning of an STK result code. */
  public static ResultMeaning stk(String code) {
    return lookup(STK, code);
  }

  /** The meaning of a B2C or B2B result code. */
  public static ResultMeaning payout(String code) {
    return lookup(PAYOUT, code);
  }

  /** The meaning of a Reversal result code. */
  public static ResultMeaning reversal(String code) {
    return lookup(REVERSAL, code);
  }

  /** The documented codes of a family, in the documentation's order. */
  public static Map<String, ResultMeaning> table(Family family) {
    return Map.copyOf(switch (family) {
      case STK -> STK;
      case PAYOUT -> PAYOUT;
      case REVERSAL -> REVERSAL;
    });
  }

  /** The documented codes of a family in the documentation's order. */
  public static java.util.List<ResultMeaning> ordered(Family family) {
    return java.util.List.copyOf(switch (family) {
      case STK -> STK.values();
      case PAYOUT -> PAYOUT.values();
      case REVERSAL -> REVERSAL.values();
    });
  }

  private static ResultMeaning lookup(Map<String, ResultMeaning> table, String code) {
    String c = code == null ? "" : code.strip();
    ResultMeaning m = table.get(c);
    if (m == null && c.matches("0+") && !c.isEmpty()) {
      m = table.get("0");
    }
    // an undocumented code is a failure kept for operators; a retry is not assumed to help
    return m != null ? m : new ResultMeaning(c, ResultMeaning.Outcome.FAILED, FailureReason.UNRECOGNISED, false,
        "undocumented result code");
  }

  private static void ok(Map<String, ResultMeaning> table, String description) {
    table.put("0", new ResultMeaning("0", ResultMeaning.Outcome.SUCCEEDED, null, false, description));
  }

  private static void fail(Map<String, ResultMeaning> table, String code, FailureReason reason, boolean retry,
      String description) {
    table.put(code, new ResultMeaning(code, ResultMeaning.Outcome.FAILED, reason, retry, description));
  }
}
