package dev.lipa.infra.bench;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The callback dispatcher's signature scheme (Standard Webhooks), for the reference payment's callbacks and the bench's
 * receiver that checks them: {@code webhook-signature} is
 * {@code v1,<base64 of HMAC-SHA256("{webhook-id}.{webhook-timestamp}.{body}")>}, keyed with the base64-decoded part of
 * a {@code whsec_...} secret (callback-dispatcher's {@code WebhookSignature}; the bench does not depend on the
 * services' code).
 */
final class WebhookSigning {

  static final String SECRET_PREFIX = "whsec_";

  private WebhookSigning() {
  }

  /** The signature of one attempt, with its {@code v1,} version prefix. */
  static String sign(byte[] key, String id, long timestamp, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] digest = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
      return "v1," + Base64.getEncoder().encodeToString(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JDK has HmacSHA256", e);
    }
  }

  /**
   * Whether a {@code webhook-signature} header (one or more space-separated signatures) holds the signature of this
   * attempt; false when a header is missing or the timestamp is not a number.
   */
  static boolean verify(byte[] key, String id, String timestamp, String body, String signatures) {
    if (id == null || timestamp == null || signatures == null) {
      return false;
    }
    long seconds;
    try {
      seconds = Long.parseLong(timestamp);
    } catch (NumberFormatException e) {
      return false;
    }
    byte[] expected = sign(key, id, seconds, body).getBytes(StandardCharsets.US_ASCII);
    for (String signature : signatures.split(" ")) {
      if (MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII))) {
        return true;
      }
    }
    return false;
  }

  /** The HMAC key of a {@code whsec_} secret. */
  static byte[] key(String secret) {
    if (secret == null || !secret.startsWith(SECRET_PREFIX)) {
      throw new IllegalArgumentException("a signing secret starts with " + SECRET_PREFIX);
    }
    return Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
  }

  /** A new secret: {@code whsec_} and the base64 of 32 random bytes. */
  static String newSecret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return SECRET_PREFIX + Base64.getEncoder().encodeToString(bytes);
  }
}
