package dev.lipa.common.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A shared secret presented in a header (the operator token, the internal token), compared in constant time: both
 * sides are hashed first, so neither the content nor the length of the expected value leaks through timing.
 */
public final class SecretHeader {

  private final byte[] expectedHash;

  /** {@code secret} null or blank: nothing is configured and nothing matches. */
  public SecretHeader(String secret) {
    this.expectedHash = secret == null || secret.isBlank() ? null : sha256(secret);
  }

  public boolean configured() {
    return expectedHash != null;
  }

  public boolean matches(String presented) {
    return expectedHash != null && presented != null && MessageDigest.isEqual(sha256(presented), expectedHash);
  }

  private static byte[] sha256(String value) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
