package dev.lipa.rails.daraja.credential;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What an operator API may show of a stored Daraja secret (consumer key and secret, passkey, security credential):
 * whether it is set and a short fingerprint, so that two operators can tell whether they hold the same value without
 * either seeing it. Only high-entropy values are fingerprinted here (Daraja generates them all), so the 48 bits shown
 * say nothing usable about the secret.
 */
public final class Fingerprints {

  private Fingerprints() {
  }

  /** {@code sha256:} and the first 12 hex digits of the SHA-256 of the secret's UTF-8 bytes; null for null. */
  public static String of(String secret) {
    if (secret == null) {
      return null;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
