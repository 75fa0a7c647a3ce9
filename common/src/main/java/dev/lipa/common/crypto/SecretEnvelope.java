package dev.lipa.common.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals secrets for storage under envelope encryption: each secret gets a fresh random data key (AES-256-GCM), and
 * the data key is wrapped by the ring's primary master key (AES-256-GCM too). The stored form names its version and
 * its master key, so a ring with a new primary in front of the old key still opens everything, and {@link #rewrap}
 * moves a secret to the primary by re-wrapping its data key only:
 *
 * <pre>lipa-sealed:v1:&lt;master key id&gt;:&lt;base64url(iv | wrapped data key | tag)&gt;:&lt;base64url(iv | ciphertext | tag)&gt;</pre>
 *
 * <p>Both layers authenticate the record's {@code context} (for example {@code signing_keys:<kid>}) as associated
 * data, and the wrap also its master key id: a sealed value copied into another record, a changed byte or a changed
 * key id does not open, and opening fails loudly ({@link SecretUnreadableException}), never with garbage.
 *
 * <p>With an empty ring (allowed only where {@code lipa.secrets.allow-plaintext=true}) secrets are stored as
 * {@code lipa-plain:v1:<base64url>}; a later ring converts them on its first re-wrap.
 */
public final class SecretEnvelope {

  static final String SEALED = "lipa-sealed";
  static final String PLAIN = "lipa-plain";
  static final String VERSION = "v1";
  private static final String SEALED_PREFIX = SEALED + ":" + VERSION + ":";
  private static final String PLAIN_PREFIX = PLAIN + ":" + VERSION + ":";
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final int DATA_KEY_BYTES = 32;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final MasterKeyRing ring;
  private final SecureRandom random;

  public SecretEnvelope(MasterKeyRing ring) {
    this(ring, new SecureRandom());
  }

  SecretEnvelope(MasterKeyRing ring, SecureRandom random) {
    this.ring = ring;
    this.random = random;
  }

  /** Whether secrets are encrypted (a master key is configured); false only in the allow-plaintext mode. */
  public boolean encrypts() {
    return !ring.isEmpty();
  }

  /** The id of the master key new secrets are sealed under, or null in the allow-plaintext mode. */
  public String primaryKeyId() {
    return ring.primaryId();
  }

  /** The stored form of {@code secret} for the record {@code context}. */
  public String seal(String secret, String context) {
    byte[] plain = secret.getBytes(StandardCharsets.UTF_8);
    if (ring.isEmpty()) {
      return PLAIN_PREFIX + ENCODER.encodeToString(plain);
    }
    byte[] dataKey = new byte[DATA_KEY_BYTES];
    random.nextBytes(dataKey);
    try {
      byte[] data = encrypt(new SecretKeySpec(dataKey, "AES"), plain, dataAad(context));
      return sealed(ring.primaryId(), wrap(ring.primaryId(), dataKey, context), data);
    } finally {
      Arrays.fill(dataKey, (byte) 0);
      Arrays.fill(plain, (byte) 0);
    }
  }

  /**
   * The secret a stored form holds.
   *
   * @throws SecretUnreadableException when it is not a stored form of ours, names a master key the ring does not hold,
   *     was changed, or was sealed for another record
   */
  public String open(String stored, String context) {
    if (stored != null && stored.startsWith(PLAIN_PREFIX)) {
      return new String(decode(stored.substring(PLAIN_PREFIX.length())), StandardCharsets.UTF_8);
    }
    Parts parts = Parts.of(stored);
    byte[] dataKey = unwrap(parts, context);
    try {
      return new String(decrypt(new SecretKeySpec(dataKey, "AES"), parts.data(), dataAad(context)),
          StandardCharsets.UTF_8);
    } finally {
      Arrays.fill(dataKey, (byte) 0);
    }
  }

  /** Whether a stored form is one of ours (sealed or plain), as opposed to an older form a store must convert. */
  public static boolean isStoredForm(String stored) {
    return stored != null && (stored.startsWith(SEALED_PREFIX) || stored.startsWith(PLAIN_PREFIX));
  }

  /** Whether a stored form is as this envelope would write it now: sealed under the primary (or plain without one). */
  public boolean isCurrent(String stored) {
    if (ring.isEmpty()) {
      return stored != null && stored.startsWith(PLAIN_PREFIX);
    }
    return stored != null && stored.startsWith(SEALED_PREFIX + ring.primaryId() + ":");
  }

  /**
   * The stored form moved to the primary master key: the data key is unwrapped with the key the form names and
   * wrapped again with the primary; the secret's own ciphertext stays as it is (it is checked to open first). A form
   * already under the primary comes back unchanged; a plain one is sealed.
   *
   * @throws SecretUnreadableException when the stored form does not open
   */
  public String rewrap(String stored, String context) {
    if (isCurrent(stored)) {
      return stored;
    }
    if (stored != null && stored.startsWith(PLAIN_PREFIX)) {
      return seal(open(stored, context), context);
    }
    Parts parts = Parts.of(stored);
    byte[] dataKey = unwrap(parts, context);
    try {
      decrypt(new SecretKeySpec(dataKey, "AES"), parts.data(), dataAad(context));
      return sealed(ring.primaryId(), wrap(ring.primaryId(), dataKey, context), parts.data());
    } finally {
      Arrays.fill(dataKey, (byte) 0);
    }
  }

  private static String sealed(String keyId, byte[] wrapped, byte[] data) {
    return SEALED_PREFIX + keyId + ":" + ENCODER.encodeToString(wrapped) + ":" + ENCODER.encodeToString(data);
  }

  private byte[] wrap(String keyId, byte[] dataKey, String context) {
    return encrypt(ring.key(keyId), dataKey, wrapAad(keyId, context));
  }

  private byte[] unwrap(Parts parts, String context) {
    SecretKey master = ring.key(parts.keyId());
    if (master == null) {
      throw new SecretUnreadableException("a secret is sealed under master key '" + parts.keyId()
          + "', which the ring " + ring.ids() + " does not hold (put it back in lipa.secrets.master-keys)");
    }
    byte[] dataKey = decrypt(master, parts.wrapped(), wrapAad(parts.keyId(), context));
    if (dataKey.length != DATA_KEY_BYTES) {
      throw new SecretUnreadableException("a sealed secret's data key has the wrong length");
    }
    return dataKey;
  }

  // the wrap is bound to its master key id too, so a stored form whose id was edited does not open; the data layer
  // is not, so that a re-wrap leaves it untouched
  private static byte[] wrapAad(String keyId, String context) {
    return (SEALED_PREFIX + "key:" + keyId + ":" + context).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] dataAad(String context) {
    return (SEALED_PREFIX + "data:" + context).getBytes(StandardCharsets.UTF_8);
  }

  private byte[] encrypt(SecretKey key, byte[] plain, byte[] aad) {
    byte[] iv = new byte[IV_BYTES];
    random.nextBytes(iv);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
      cipher.updateAAD(aad);
      byte[] sealed = cipher.doFinal(plain);
      return ByteBuffer.allocate(IV_BYTES + sealed.length).put(iv).put(sealed).array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256-GCM is not available", e);
    }
  }

  private static byte[] decrypt(SecretKey key, byte[] sealed, byte[] aad) {
    if (sealed.length < IV_BYTES + TAG_BITS / 8) {
      throw new SecretUnreadableException("a sealed secret is truncated");
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, IV_BYTES));
      cipher.updateAAD(aad);
      return cipher.doFinal(sealed, IV_BYTES, sealed.length - IV_BYTES);
    } catch (AEADBadTagException e) {
      throw new SecretUnreadableException(
          "a sealed secret does not open: it was changed, or sealed for another record", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256-GCM is not available", e);
    }
  }

  private static byte[] decode(String text) {
    try {
      return DECODER.decode(text);
    } catch (IllegalArgumentException e) {
      throw new SecretUnreadableException("a stored secret is not valid base64url", e);
    }
  }

  /** The fields of a sealed form. */
  private record Parts(String keyId, byte[] wrapped, byte[] data) {

    static Parts of(String stored) {
      if (stored == null || !stored.startsWith(SEALED + ":")) {
        throw new SecretUnreadableException("not a sealed secret");
      }
      String[] fields = stored.split(":", -1);
      if (!VERSION.equals(fields[1])) {
        throw new SecretUnreadableException("a sealed secret of an unknown version: " + safe(fields[1]));
      }
      if (fields.length != 5 || !MasterKeyRing.KEY_ID.matcher(fields[2]).matches()) {
        throw new SecretUnreadableException("a sealed secret is malformed");
      }
      return new Parts(fields[2], decode(fields[3]), decode(fields[4]));
    }

    private static String safe(String version) {
      return version.length() <= 8 && version.chars().allMatch(Character::isLetterOrDigit) ? version : "(unprintable)";
    }
  }
}
