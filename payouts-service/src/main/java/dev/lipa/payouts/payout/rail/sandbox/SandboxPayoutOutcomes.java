package dev.lipa.payouts.payout.rail.sandbox;

import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutRailOutcome;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * The sandbox's deterministic payout outcomes, chosen like card networks' test numbers (documented in the README):
 * <ul>
 *   <li>send money, by the phone number's last seven digits (any KE, TZ or UG network): {@code 0000001} the provider's
 *       account has insufficient funds, {@code 0000404} the receiver's account is invalid, {@code 0000408} the
 *       provider timed out, e.g. 254700000001, 254700000404, 254700000408, 255710000404, 256700000408;</li>
 *   <li>till and paybill, by the business number: {@code 000001}, {@code 000404}, {@code 000408}, same meanings.</li>
 * </ul>
 * Everything else succeeds. The result and the receipt depend only on the order, so asking again gives the same
 * answer. Every failure is FAILED (the reservation is released); a timeout is reported as a failure because the
 * sandbox provider never pays a timed-out order.
 */
public final class SandboxPayoutOutcomes {

  public static final String INSUFFICIENT_FUNDS_SUFFIX = "0000001";
  public static final String INVALID_ACCOUNT_SUFFIX = "0000404";
  public static final String TIMEOUT_SUFFIX = "0000408";
  public static final String INSUFFICIENT_FUNDS_BUSINESS = "000001";
  public static final String INVALID_ACCOUNT_BUSINESS = "000404";
  public static final String TIMEOUT_BUSINESS = "000408";

  static final String ACCEPTED_DESCRIPTION = "Accept the service request successfully.";
  static final String SUCCESS_DESCRIPTION = "The service request is processed successfully.";

  record Failure(int code, String description) {
  }

  static final Failure NO_FUNDS = new Failure(1, "The balance is insufficient for the transaction.");
  static final Failure INVALID_ACCOUNT = new Failure(2040, "The receiver account is invalid.");
  static final Failure TIMED_OUT = new Failure(1037, "The request timed out at the provider.");

  private static final Map<String, Failure> PHONE_FAILURES = Map.of(INSUFFICIENT_FUNDS_SUFFIX, NO_FUNDS,
      INVALID_ACCOUNT_SUFFIX, INVALID_ACCOUNT, TIMEOUT_SUFFIX, TIMED_OUT);
  private static final Map<String, Failure> BUSINESS_FAILURES = Map.of(INSUFFICIENT_FUNDS_BUSINESS, NO_FUNDS,
      INVALID_ACCOUNT_BUSINESS, INVALID_ACCOUNT, TIMEOUT_BUSINESS, TIMED_OUT);

  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");
  private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  private static final String ALPHANUMERICS = LETTERS + "0123456789";

  private SandboxPayoutOutcomes() {
  }

  public static PayoutRailOutcome decide(PayoutOrder order, Instant now, ZoneId zone) {
    byte[] digest = digest(order.requestId().toString());
    Failure failure = failureOf(order);
    String conversationId = "AG_" + DAY.format(now.atZone(zone)) + "_" + code(digest, 0, 20).toLowerCase();
    String receiver = order.phoneNumber() != null
        ? order.phoneNumber() + " - " + (order.receiverName() == null ? "SANDBOX RECIPIENT" : order.receiverName())
        : order.businessNumber() + " - SANDBOX MERCHANT";
    return new PayoutRailOutcome(order.organisationId(), order.requestId(), conversationId, 0, ACCEPTED_DESCRIPTION,
        failure == null ? 0 : failure.code(), failure == null ? SUCCESS_DESCRIPTION : failure.description(),
        failure == null ? receipt(digest) : null, failure == null ? receiver : null);
  }

  static Failure failureOf(PayoutOrder order) {
    if (order.phoneNumber() != null) {
      String phone = order.phoneNumber();
      return PHONE_FAILURES.get(phone.substring(Math.max(0, phone.length() - 7)));
    }
    return order.businessNumber() == null ? null : BUSINESS_FAILURES.get(order.businessNumber());
  }

  /** Ten uppercase letters and digits, starting with a letter, like an M-Pesa receipt. */
  static String receipt(byte[] digest) {
    return LETTERS.charAt(Byte.toUnsignedInt(digest[20]) % LETTERS.length()) + code(digest, 21, 9);
  }

  private static String code(byte[] digest, int from, int length) {
    StringBuilder code = new StringBuilder(length);
    for (int i = from; i < from + length; i++) {
      code.append(ALPHANUMERICS.charAt(Byte.toUnsignedInt(digest[i % digest.length]) % ALPHANUMERICS.length()));
    }
    return code.toString();
  }

  private static byte[] digest(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
