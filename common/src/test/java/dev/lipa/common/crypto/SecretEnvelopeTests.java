package dev.lipa.common.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class SecretEnvelopeTests {

  static final String K1 = "k1:" + key(1);
  static final String K2 = "k2:" + key(2);
  private static final String SECRET = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
  private static final String CONTEXT = "signing_secrets:org-a";

  static String key(int seed) {
    byte[] bytes = new byte[32];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (seed * 31 + i * 7);
    }
    return Base64.getEncoder().encodeToString(bytes);
  }

  static SecretEnvelope envelope(String... entries) {
    return new SecretEnvelope(MasterKeyRing.parse(String.join(",", entries)));
  }

  @Nested
  class Sealing {

    @Test
    void opensWhatItSealed() {
      SecretEnvelope envelope = envelope(K1);

      assertThat(envelope.open(envelope.seal(SECRET, CONTEXT), CONTEXT)).isEqualTo(SECRET);
    }

    @Test
    void storesAFormNamingItsVersionAndMasterKeyWithNoSecretInIt() {
      String sealed = envelope(K1).seal(SECRET, CONTEXT);

      assertThat(sealed).startsWith("lipa-sealed:v1:k1:").doesNotContain(SECRET).doesNotContain(SECRET.substring(6))
          .doesNotContain(CONTEXT);
      assertThat(sealed.split(":")).hasSize(5);
    }

    @Test
    void sealsTheSameSecretDifferentlyEachTime() {
      SecretEnvelope envelope = envelope(K1);
      String[] first = envelope.seal(SECRET, CONTEXT).split(":");
      String[] second = envelope.seal(SECRET, CONTEXT).split(":");

      // a fresh data key and fresh nonces per secret
      assertThat(first[3]).isNotEqualTo(second[3]);
      assertThat(first[4]).isNotEqualTo(second[4]);
    }

    @Test
    void sealsUnderThePrimaryKeyTheFirstOneOfTheRing() {
      assertThat(envelope(K2, K1).seal(SECRET, CONTEXT)).startsWith("lipa-sealed:v1:k2:");
      assertThat(envelope(K2, K1).primaryKeyId()).isEqualTo("k2");
    }
  }

  @Nested
  class MasterKeyRotation {

    @Test
    void aNewPrimaryInFrontOfTheOldKeyOpensEverythingAndTheRewrapLetsTheOldKeyGo() {
      String sealedWithK1 = envelope(K1).seal(SECRET, CONTEXT);

      SecretEnvelope rotated = envelope(K2, K1);
      assertThat(rotated.open(sealedWithK1, CONTEXT)).isEqualTo(SECRET);
      assertThat(rotated.isCurrent(sealedWithK1)).isFalse();

      String rewrapped = rotated.rewrap(sealedWithK1, CONTEXT);
      assertThat(rewrapped).startsWith("lipa-sealed:v1:k2:");
      assertThat(rotated.isCurrent(rewrapped)).isTrue();
      // only the data key was wrapped again: the secret's own ciphertext is the same bytes
      assertThat(rewrapped.split(":")[4]).isEqualTo(sealedWithK1.split(":")[4]);

      assertThat(envelope(K2).open(rewrapped, CONTEXT)).isEqualTo(SECRET);
      assertThatThrownBy(() -> envelope(K1).open(rewrapped, CONTEXT))
          .isInstanceOf(SecretUnreadableException.class).hasMessageContaining("'k2'");
    }

    @Test
    void rewrapsNothingThatIsAlreadyUnderThePrimary() {
      SecretEnvelope envelope = envelope(K2, K1);
      String sealed = envelope.seal(SECRET, CONTEXT);

      assertThat(envelope.rewrap(sealed, CONTEXT)).isSameAs(sealed);
    }

    @Test
    void refusesToRewrapWhatDoesNotOpen() {
      String sealedWithK1 = envelope(K1).seal(SECRET, CONTEXT);

      assertThatThrownBy(() -> envelope(K2, K1).rewrap(sealedWithK1, "signing_secrets:org-b"))
          .isInstanceOf(SecretUnreadableException.class);
      assertThatThrownBy(() -> envelope(K2, K1).rewrap(flip(sealedWithK1, sealedWithK1.length() - 3), CONTEXT))
          .isInstanceOf(SecretUnreadableException.class);
    }
  }

  @Nested
  class FailsLoudly {

    private final SecretEnvelope envelope = envelope(K2, K1);
    private final String sealed = envelope.seal(SECRET, CONTEXT);

    @Test
    void whenTheCiphertextWasChanged() {
      String tampered = flip(sealed, sealed.length() - 5);

      assertThatThrownBy(() -> envelope.open(tampered, CONTEXT))
          .isInstanceOf(SecretUnreadableException.class).hasMessageContaining("does not open");
    }

    @Test
    void whenTheWrappedDataKeyWasChanged() {
      int wrappedKey = "lipa-sealed:v1:k2:".length() + 20;

      assertThatThrownBy(() -> envelope.open(flip(sealed, wrappedKey), CONTEXT))
          .isInstanceOf(SecretUnreadableException.class);
    }

    @Test
    void whenItWasSealedForAnotherRecord() {
      assertThatThrownBy(() -> envelope.open(sealed, "signing_secrets:org-b"))
          .isInstanceOf(SecretUnreadableException.class).hasMessageContaining("another record");
    }

    @Test
    void whenItNamesAMasterKeyTheRingDoesNotHold() {
      String underK3 = envelope("k3:" + key(3)).seal(SECRET, CONTEXT);

      assertThatThrownBy(() -> envelope.open(underK3, CONTEXT))
          .isInstanceOf(SecretUnreadableException.class)
          .hasMessageContaining("'k3'").hasMessageContaining("[k2, k1]");
    }

    @Test
    void whenItsMasterKeyIdWasEditedToAnotherKeyOfTheRing() {
      String relabelled = sealed.replace("lipa-sealed:v1:k2:", "lipa-sealed:v1:k1:");

      assertThatThrownBy(() -> envelope.open(relabelled, CONTEXT)).isInstanceOf(SecretUnreadableException.class);
    }

    @Test
    void whenItIsMalformedOrOfAnUnknownVersion() {
      for (String bad : new String[] {"", "whsec_abc", "lipa-sealed:v1:k2:abc", "lipa-sealed:v9:k2:a:b",
          "lipa-sealed:v1:k2:!!:??", "lipa-sealed:v1:k 2:YQ:YQ", sealed + ":x", "lipa-sealed:v1:k2:YQ:YQ"}) {
        assertThatThrownBy(() -> envelope.open(bad, CONTEXT)).as(bad).isInstanceOf(SecretUnreadableException.class);
      }
      assertThatThrownBy(() -> envelope.open(null, CONTEXT)).isInstanceOf(SecretUnreadableException.class);
    }

    @Test
    void neverReturnsAnythingButTheSecretWhateverCharacterIsChanged() {
      for (int i = 0; i < sealed.length(); i++) {
        String changed = flip(sealed, i);
        try {
          // base64's last character may carry unused bits: changing only those changes nothing
          assertThat(envelope.open(changed, CONTEXT)).as("position " + i).isEqualTo(SECRET);
        } catch (SecretUnreadableException expected) {
          // refused: fine
        }
      }
    }
  }

  @Nested
  class WithoutAMasterKey {

    private final SecretEnvelope plain = new SecretEnvelope(MasterKeyRing.empty());

    @Test
    void storesSecretsMarkedPlainAndReadsThemBack() {
      String stored = plain.seal(SECRET, CONTEXT);

      assertThat(plain.encrypts()).isFalse();
      assertThat(stored).startsWith("lipa-plain:v1:");
      assertThat(plain.open(stored, CONTEXT)).isEqualTo(SECRET);
      assertThat(plain.isCurrent(stored)).isTrue();
    }

    @Test
    void aRingConfiguredLaterSealsThemOnItsFirstRewrap() {
      String stored = plain.seal(SECRET, CONTEXT);
      SecretEnvelope keyed = envelope(K1);

      assertThat(keyed.isCurrent(stored)).isFalse();
      String sealed = keyed.rewrap(stored, CONTEXT);
      assertThat(sealed).startsWith("lipa-sealed:v1:k1:");
      assertThat(keyed.open(sealed, CONTEXT)).isEqualTo(SECRET);
    }

    @Test
    void cannotOpenSealedSecrets() {
      String sealed = envelope(K1).seal(SECRET, CONTEXT);

      assertThatThrownBy(() -> plain.open(sealed, CONTEXT)).isInstanceOf(SecretUnreadableException.class);
    }
  }

  /** The stored form with the character at {@code index} replaced by another one of the same alphabet. */
  static String flip(String stored, int index) {
    char c = stored.charAt(index);
    char replacement = c == 'A' ? 'B' : c == ':' ? ';' : 'A';
    return stored.substring(0, index) + replacement + stored.substring(index + 1);
  }
}
