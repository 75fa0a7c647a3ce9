package dev.lipa.collections.bank.web;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a partner bank's signature of a notification. Header {@value #HEADER}:
 * {@code t=<unix seconds>,v1=<hex HMAC-SHA256>} where the HMAC, keyed with the bank's shared secret, is over the
 * bytes {@code "<t>.<raw request body>"}. The timestamp must be within the tolerance of our clock (either way), which
 * bounds replays; several {@code v1} entries may be sent (one per secret while a secret is rotated) and one valid
 * entry suffices. Comparisons are constant-time; an unknown bank fails exactly like a wrong signature.
 */
final class BankSignatures {

  static final String HEADER = "X-Lipa-Signature";
  private static final String ALGORITHM = "HmacSHA256";
  private static final HexFormat HEX = HexFormat.of();
  private static final int MAX_HEADER_LENGTH = 1024;

  private final Map<String, byte[]> secrets;
  private final Duration tolerance;
  private final Clock clock;

  BankSignatures(Map<String, String> secrets, Duration tolerance, Clock clock) {
    this.secrets = new java.util.HashMap<>();
    secrets.forEach((bank, secret) -> this.secrets.put(bank, secret.getBytes(StandardCharsets.UTF_8)));
    this.tolerance = tolerance;
    this.clock = clock;
  }

  /** True only for a known bank, a fresh timestamp and a v1 signature of exactly these body bytes. */
  boolean verify(String bankCode, String header, byte[] body) {
    byte[] secret = bankCode == null ? null : secrets.get(bankCode);
    if (secret == null || header == null || header.length() > MAX_HEADER_LENGTH) {
      return false;
    }
    Long timestamp = null;
    List<String> signatures = new ArrayList<>();
    for (String part : header.split(",")) {
      int eq = part.indexOf('=');
      if (eq < 0) {
        return false;
      }
      String name = part.substring(0, eq).strip();
      String value = part.substring(eq + 1).strip();
      if (name.equals("t")) {
        if (timestamp != null || !value.matches("[0-9]{1,12}")) {
          return false;
        }
        timestamp = Long.parseLong(value);
      } else if (name.equals("v1")) {
        signatures.add(value.toLowerCase(Locale.ROOT));
      }
      // other schemes are ignored, so that a bank can send a future scheme beside v1
    }
    if (timestamp == null || signatures.isEmpty()) {
      return false;
    }
    long now = clock.instant().getEpochSecond();
    if (Math.abs(now - timestamp) > tolerance.toSeconds()) {
      return false;
    }
    byte[] expected = HEX.formatHex(hmac(secret, timestamp, body)).getBytes(StandardCharsets.US_ASCII);
    boolean valid = false;
    for (String signature : signatures) {
      // no early exit: every entry costs the same
      valid |= MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII));
    }
    return valid;
  }

  /** The header value a bank sends for this body at time {@code t}; for tests and the partner documentation. */
  static String sign(String secret, long t, byte[] body) {
    return "t=" + t + ",v1=" + HEX.formatHex(hmac(secret.getBytes(StandardCharsets.UTF_8), t, body));
  }

  private static byte[] hmac(byte[] secret, long t, byte[] body) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(secret, ALGORITHM));
      mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("every JDK has HmacSHA256", e);
    }
  }
}
