package dev.lipa.collections.stk.rail.sandbox;

import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * The sandbox's deterministic outcomes, chosen by the customer's phone number like card networks' test numbers
 * (documented in the README). Every other number, Daraja's test number 254708374149 included, pays successfully.
 * The result and the receipt depend only on the request, so asking again gives the same answer.
 *
 * <p>Tanzania and Uganda mirror Kenya's magic numbers (same endings, same result codes), on valid mobile ranges:
 * Tigo 25571000…, Airtel Tanzania 25568000… (so each TZ channel has its own set) and Airtel Uganda 25670000….
 */
public final class SandboxOutcomes {

  public static final String INSUFFICIENT_FUNDS = "254700000001";
  public static final String CANCELLED_BY_USER = "254700001032";
  public static final String UNREACHABLE = "254700001037";
  public static final String WRONG_PIN = "254700002001";
  public static final String DARAJA_TEST_NUMBER = "254708374149";

  public static final String TZ_TIGO_INSUFFICIENT_FUNDS = "255710000001";
  public static final String TZ_TIGO_CANCELLED_BY_USER = "255710001032";
  public static final String TZ_TIGO_UNREACHABLE = "255710001037";
  public static final String TZ_TIGO_WRONG_PIN = "255710002001";
  public static final String TZ_AIRTEL_INSUFFICIENT_FUNDS = "255680000001";
  public static final String TZ_AIRTEL_CANCELLED_BY_USER = "255680001032";
  public static final String TZ_AIRTEL_UNREACHABLE = "255680001037";
  public static final String TZ_AIRTEL_WRONG_PIN = "255680002001";
  public static final String UG_INSUFFICIENT_FUNDS = "256700000001";
  public static final String UG_CANCELLED_BY_USER = "256700001032";
  public static final String UG_UNREACHABLE = "256700001037";
  public static final String UG_WRONG_PIN = "256700002001";

  static final String ACCEPTED_DESCRIPTION = "Success. Request accepted for processing";
  static final String SUCCESS_DESCRIPTION = "The service request is processed successfully.";

  private record Failure(int code, String description) {
  }

  private static final Failure NO_FUNDS = new Failure(1, "The balance is insufficient for the transaction.");
  private static final Failure CANCELLED = new Failure(1032, "Request cancelled by user");
  private static final Failure NOT_REACHED = new Failure(1037, "DS timeout user cannot be reached");
  private static final Failure BAD_PIN = new Failure(2001, "The initiator information is invalid.");

  private static final Map<String, Failure> FAILURES = Map.ofEntries(
      Map.entry(INSUFFICIENT_FUNDS, NO_FUNDS),
      Map.entry(CANCELLED_BY_USER, CANCELLED),
      Map.entry(UNREACHABLE, NOT_REACHED),
      Map.entry(WRONG_PIN, BAD_PIN),
      Map.entry(TZ_TIGO_INSUFFICIENT_FUNDS, NO_FUNDS),
      Map.entry(TZ_TIGO_CANCELLED_BY_USER, CANCELLED),
      Map.entry(TZ_TIGO_UNREACHABLE, NOT_REACHED),
      Map.entry(TZ_TIGO_WRONG_PIN, BAD_PIN),
      Map.entry(TZ_AIRTEL_INSUFFICIENT_FUNDS, NO_FUNDS),
      Map.entry(TZ_AIRTEL_CANCELLED_BY_USER, CANCELLED),
      Map.entry(TZ_AIRTEL_UNREACHABLE, NOT_REACHED),
      Map.entry(TZ_AIRTEL_WRONG_PIN, BAD_PIN),
      Map.entry(UG_INSUFFICIENT_FUNDS, NO_FUNDS),
      Map.entry(UG_CANCELLED_BY_USER, CANCELLED),
      Map.entry(UG_UNREACHABLE, NOT_REACHED),
      Map.entry(UG_WRONG_PIN, BAD_PIN));

  private static final DateTimeFormatter CHECKOUT_TIME = DateTimeFormatter.ofPattern("ddMMyyyyHHmmss");
  private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  private static final String ALPHANUMERICS = LETTERS + "0123456789";

  private SandboxOutcomes() {
  }

  /** The outcome of a prompt, with Daraja-like request ids (the checkout id carries the time, as Daraja's does). */
  public static StkRailOutcome decide(StkPrompt prompt, Instant now, ZoneId zone) {
    byte[] digest = digest(prompt.requestId().toString());
    ByteBuffer bits = ByteBuffer.wrap(digest);
    long first = Math.abs(bits.getLong() % 100_000L);
    long second = Math.abs(bits.getLong() % 100_000_000L);
    long third = Math.abs(bits.getLong() % 10L);
    long tail = Math.abs(bits.getLong() % 10_000L);
    String merchantRequestId = "%d-%08d-%d".formatted(first, second, third);
    String checkoutRequestId = "ws_CO_%s%04d".formatted(CHECKOUT_TIME.format(now.atZone(zone)), tail);
    Failure failure = FAILURES.get(prompt.phoneNumber());
    return new StkRailOutcome(prompt.organisationId(), prompt.requestId(), merchantRequestId, checkoutRequestId,
        0, ACCEPTED_DESCRIPTION, ACCEPTED_DESCRIPTION,
        failure == null ? 0 : failure.code(),
        failure == null ? SUCCESS_DESCRIPTION : failure.description(),
        failure == null ? receipt(digest) : null);
  }

  /** Ten uppercase letters and digits, starting with a letter, like an M-Pesa receipt (e.g. NLJ7RT61SV). */
  static String receipt(byte[] digest) {
    StringBuilder receipt = new StringBuilder(10);
    receipt.append(LETTERS.charAt(Byte.toUnsignedInt(digest[20]) % LETTERS.length()));
    for (int i = 21; i < 30; i++) {
      receipt.append(ALPHANUMERICS.charAt(Byte.toUnsignedInt(digest[i]) % ALPHANUMERICS.length()));
    }
    return receipt.toString();
  }

  private static byte[] digest(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
