package dev.lipa.rails.daraja;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Daraja's field limits, applied before a request is sent: a value Daraja would refuse, cut or round is refused here
 * with the field's name ({@link DarajaFieldException}), so the platform never sends what it did not mean.
 */
public final class DarajaFields {

  /** STK push {@code AccountReference}: at most 12 characters (shown to the customer in the prompt). */
  public static final int STK_ACCOUNT_REFERENCE_MAX = 12;
  /** STK push {@code TransactionDesc}: at most 13 characters. */
  public static final int STK_TRANSACTION_DESC_MAX = 13;
  /** B2B {@code AccountReference}: at most 13 characters. */
  public static final int B2B_ACCOUNT_REFERENCE_MAX = 13;
  /** {@code Remarks} of B2C, B2B, Transaction Status, Account Balance and Reversal: 2 to 100 characters. */
  public static final int REMARKS_MIN = 2;
  public static final int REMARKS_MAX = 100;
  /** {@code Occassion}/{@code Occasion}: at most 100 characters. */
  public static final int OCCASION_MAX = 100;

  private DarajaFields() {
  }

  /**
   * A whole, positive amount of shillings as Daraja takes it. A fractional amount is refused rather than rounded: the
   * customer or the receiver would otherwise be charged or paid other than the record says.
   */
  public static long wholeAmount(String field, BigDecimal amount) {
    if (amount == null) {
      throw new DarajaFieldException(field, "is required");
    }
    if (amount.signum() <= 0) {
      throw new DarajaFieldException(field, "must be positive");
    }
    BigDecimal stripped = amount.stripTrailingZeros();
    if (stripped.scale() > 0) {
      throw new DarajaFieldException(field, "must be a whole number of shillings (Daraja takes no cents)");
    }
    BigInteger whole = stripped.toBigIntegerExact();
    if (whole.bitLength() > 40) {
      throw new DarajaFieldException(field, "is out of range");
    }
    return whole.longValueExact();
  }

  /**
   * A Safaricom subscriber's number as Daraja takes it ({@code 2547XXXXXXXX} or {@code 2541XXXXXXXX}), from that form, a
   * leading {@code +}, or the national form ({@code 07XXXXXXXX}, {@code 01XXXXXXXX}).
   */
  public static String msisdn(String field, String phone) {
    if (phone == null) {
      throw new DarajaFieldException(field, "is required");
    }
    String p = phone.strip();
    if (p.startsWith("+")) {
      p = p.substring(1);
    }
    if (p.matches("0[17][0-9]{8}")) {
      p = "254" + p.substring(1);
    }
    if (!p.matches("254[17][0-9]{8}")) {
      throw new DarajaFieldException(field, "must be a Kenyan mobile number, 2547XXXXXXXX or 2541XXXXXXXX");
    }
    return p;
  }

  /** A text of at most {@code max} characters, required and not blank; never cut. */
  public static String bounded(String field, String value, int max) {
    if (value == null || value.isBlank()) {
      throw new DarajaFieldException(field, "is required");
    }
    return boundedOptional(field, value, max);
  }

  /** An optional text of at most {@code max} characters (null stays null); never cut. */
  public static String boundedOptional(String field, String value, int max) {
    if (value == null) {
      return null;
    }
    if (value.codePointCount(0, value.length()) > max) {
      throw new DarajaFieldException(field, "must be at most " + max + " characters");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new DarajaFieldException(field, "must not contain control characters");
      }
    }
    return value;
  }

  /** {@code Remarks}: 2 to 100 characters. */
  public static String remarks(String value) {
    String r = bounded("Remarks", value, REMARKS_MAX);
    if (r.codePointCount(0, r.length()) < REMARKS_MIN) {
      throw new DarajaFieldException("Remarks", "must be at least " + REMARKS_MIN + " characters");
    }
    return r;
  }

  /** A shortcode, till or paybill number: 5 to 9 digits. */
  public static String shortcode(String field, String value) {
    if (value == null || !value.matches("[0-9]{5,9}")) {
      throw new DarajaFieldException(field, "must be 5 to 9 digits");
    }
    return value;
  }

  /**
   * Our id of a payout, sent as {@code OriginatorConversationID} so that the payout can be found again by Transaction
   * Status whatever happens to the answer: letters, digits, {@code -} and {@code _}, 1 to 64 characters.
   */
  public static String originatorConversationId(String value) {
    if (value == null || !value.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new DarajaFieldException("OriginatorConversationID",
          "must be 1 to 64 letters, digits, '-' or '_'");
    }
    return value;
  }
}
