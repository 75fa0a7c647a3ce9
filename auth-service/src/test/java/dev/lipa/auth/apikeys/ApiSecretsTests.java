package dev.lipa.auth.apikeys;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiSecretsTests {

  private final SecureRandom random = new SecureRandom();

  @Test
  void newSecretIs32RandomBytesInBase64UrlWithoutPadding() {
    String secret = ApiSecrets.newSecret(random);

    assertThat(secret).hasSize(43).matches("[A-Za-z0-9_-]+");
    assertThat(Base64.getUrlDecoder().decode(secret)).hasSize(32);
  }

  @Test
  void newSecretsDoNotRepeat() {
    Set<String> secrets = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      secrets.add(ApiSecrets.newSecret(random));
    }
    assertThat(secrets).hasSize(1000);
  }

  @Test
  void hashIsSha256OfTheSecretAndNotTheSecretItself() {
    String secret = ApiSecrets.newSecret(random);

    byte[] hash = ApiSecrets.hash(secret);

    assertThat(hash).hasSize(32).isEqualTo(ApiSecrets.hash(secret));
    assertThat(new String(hash, StandardCharsets.ISO_8859_1)).doesNotContain(secret);
  }

  @Test
  void matchesTheSecretItWasHashedFrom() {
    String secret = ApiSecrets.newSecret(random);

    assertThat(ApiSecrets.matches(secret, ApiSecrets.hash(secret))).isTrue();
  }

  @Test
  void refusesAnyOtherSecret() {
    String secret = ApiSecrets.newSecret(random);
    byte[] stored = ApiSecrets.hash(secret);
    String lastCharacterChanged = secret.substring(0, 42) + (secret.charAt(42) == 'A' ? 'B' : 'A');

    assertThat(ApiSecrets.matches(lastCharacterChanged, stored)).isFalse();
    assertThat(ApiSecrets.matches(secret.substring(0, 42), stored)).isFalse();
    assertThat(ApiSecrets.matches(secret + "x", stored)).isFalse();
    assertThat(ApiSecrets.matches("", stored)).isFalse();
    assertThat(ApiSecrets.matches(ApiSecrets.newSecret(random), stored)).isFalse();
  }

  @Test
  void refusesTheStoredHashPresentedAsTheSecret() {
    String secret = ApiSecrets.newSecret(random);
    byte[] stored = ApiSecrets.hash(secret);

    assertThat(ApiSecrets.matches(Base64.getUrlEncoder().withoutPadding().encodeToString(stored), stored)).isFalse();
  }
}
