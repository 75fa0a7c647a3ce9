package dev.lipa.auth.apikeys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * API secrets: generated, hashed for storage and compared in constant time.
 *
 * <p>SHA-256, not bcrypt/scrypt/Argon2, on purpose. Slow hashes exist to make guessing <em>low-entropy</em> human
 * passwords expensive; our secrets are 256 random bits, so a stolen hash cannot be reversed by guessing however fast
 * the hash is. A slow hash would only cost ~100 ms of CPU per {@code get-token} call, a lever for anyone who wants to
 * exhaust the service's two cores.
 */
final class ApiSecrets {

  static final int SECRET_BYTES = 32;
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private ApiSecrets() {
  }

  /** A new secret: 32 random bytes, base64url without padding (43 characters). */
  static String newSecret(SecureRandom random) {
    byte[] bytes = new byte[SECRET_BYTES];
    random.nextBytes(bytes);
    return BASE64URL.encodeToString(bytes);
  }

  /** What is stored instead of the secret. */
  static byte[] hash(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /**
   * Whether the presented secret hashes to the stored hash. {@link MessageDigest#isEqual} takes the same time
   * wherever the first differing byte is, so response times do not leak how much of a guess was right.
   */
  static boolean matches(String presented, byte[] storedHash) {
    return MessageDigest.isEqual(hash(presented), storedHash);
  }
}
