package dev.lipa.dispatcher.signing;

import dev.lipa.common.crypto.SecretUnreadableException;
import dev.lipa.common.ids.OrganisationId;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Reads the forms earlier versions stored signing secrets in, so that the re-wrap can seal them under the master key:
 * {@code v1:<base64(iv | ciphertext | tag)>} (AES-256-GCM under {@code lipa.dispatcher.signing.encryption-key}, the
 * organisation id as associated data) and {@code plain:<secret>}. Nothing is written in these forms any more.
 */
final class LegacySecretCipher {

  private static final String ENCRYPTED = "v1:";
  private static final String PLAIN = "plain:";
  private static final int IV_BYTES = 12;

  private final SecretKeySpec key;

  /** {@code key} null: the earlier version ran without one, so only {@code plain:} forms can be read. */
  LegacySecretCipher(byte[] key) {
    this.key = key == null ? null : new SecretKeySpec(key, "AES");
  }

  /** The secret of a value in an earlier form, or empty when the value is in neither. */
  Optional<String> open(OrganisationId organisationId, String stored) {
    if (stored.startsWith(PLAIN)) {
      return Optional.of(stored.substring(PLAIN.length()));
    }
    if (!stored.startsWith(ENCRYPTED)) {
      return Optional.empty();
    }
    if (key == null) {
      throw new SecretUnreadableException("a signing secret is encrypted with the earlier key, and "
          + "lipa.dispatcher.signing.encryption-key is not set: set it until the re-wrap has sealed every secret");
    }
    try {
      byte[] all = Base64.getDecoder().decode(stored.substring(ENCRYPTED.length()));
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, all, 0, IV_BYTES));
      cipher.updateAAD(organisationId.value().getBytes(StandardCharsets.UTF_8));
      return Optional.of(new String(cipher.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8));
    } catch (AEADBadTagException | IllegalArgumentException e) {
      throw new SecretUnreadableException("a signing secret in the earlier encrypted form does not open (wrong "
          + "lipa.dispatcher.signing.encryption-key?)", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256-GCM is not available", e);
    }
  }
}
