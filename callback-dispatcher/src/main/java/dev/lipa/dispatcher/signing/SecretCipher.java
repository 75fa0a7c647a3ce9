package dev.lipa.dispatcher.signing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts signing secrets at rest with AES-256-GCM, the organisation id as associated data (a ciphertext copied to
 * another organisation's record does not decrypt). Without a configured key secrets are stored as they are, marked
 * {@code plain:}, so a key can be introduced later: both forms are read, new writes use the key.
 */
final class SecretCipher {

  private static final String ENCRYPTED = "v1:";
  private static final String PLAIN = "plain:";
  private static final int IV_BYTES = 12;

  private final SecretKeySpec key;
  private final SecureRandom random;

  /** {@code key} null: no encryption. */
  SecretCipher(byte[] key, SecureRandom random) {
    if (key != null && key.length != 32) {
      throw new IllegalArgumentException("the signing secrets key must be 32 bytes (base64 of 32 random bytes)");
    }
    this.key = key == null ? null : new SecretKeySpec(key, "AES");
    this.random = random;
  }

  boolean encrypts() {
    return key != null;
  }

  String seal(String organisationId, String secret) {
    if (key == null) {
      return PLAIN + secret;
    }
    try {
      byte[] iv = new byte[IV_BYTES];
      random.nextBytes(iv);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
      cipher.updateAAD(organisationId.getBytes(StandardCharsets.UTF_8));
      byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
      return ENCRYPTED + Base64.getEncoder().encodeToString(
          ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("could not encrypt a signing secret", e);
    }
  }

  String open(String organisationId, String stored) {
    if (stored.startsWith(PLAIN)) {
      return stored.substring(PLAIN.length());
    }
    if (!stored.startsWith(ENCRYPTED)) {
      throw new IllegalStateException("unknown signing secret format");
    }
    if (key == null) {
      throw new IllegalStateException("signing secrets are encrypted but no key is configured "
          + "(lipa.dispatcher.signing.encryption-key)");
    }
    try {
      byte[] all = Base64.getDecoder().decode(stored.substring(ENCRYPTED.length()));
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, all, 0, IV_BYTES));
      cipher.updateAAD(organisationId.getBytes(StandardCharsets.UTF_8));
      return new String(cipher.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("could not decrypt a signing secret (wrong key?)", e);
    }
  }
}
