package dev.lipa.dispatcher.signing;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Standard Webhooks signature scheme: {@code v1,<base64 of HMAC-SHA256("{id}.{timestamp}.{body}")>}, keyed with
 * the base64-decoded part of a {@code whsec_...} secret. Pure functions, pinned by test vectors.
 */
public final class WebhookSignature {

  public static final String SECRET_PREFIX = "whsec_";
  static final int SECRET_BYTES = 32;

  private WebhookSignature() {
  }

  /** The signature of one attempt, with its {@code v1,} version prefix. */
  public static String sign(byte[] key, String id, long timestamp, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] digest = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
      return "v1," + Base64.getEncoder().encodeToString(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has HmacSHA256", e);
    }
  }

  /** The HMAC key of a {@code whsec_} secret. */
  public static byte[] key(String secret) {
    if (secret == null || !secret.startsWith(SECRET_PREFIX)) {
      throw new IllegalArgumentException("a signing secret starts with " + SECRET_PREFIX);
    }
    return Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
  }

  /** A new secret: {@code whsec_} and the base64 of 32 random bytes. */
  public static String newSecret(SecureRandom random) {
    byte[] bytes = new byte[SECRET_BYTES];
    random.nextBytes(bytes);
    return SECRET_PREFIX + Base64.getEncoder().encodeToString(bytes);
  }
}
