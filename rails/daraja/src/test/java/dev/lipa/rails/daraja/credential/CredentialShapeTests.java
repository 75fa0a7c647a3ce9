package dev.lipa.rails.daraja.credential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.daraja.simulator.TestCertificate;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CredentialShapeTests {

  @Test
  void aCredentialMadeWithTheCertificateIsWellFormed() {
    String credential = SecurityCredentials.encrypt("Safaricom999!*!".toCharArray(),
        TestCertificate.load().certificate());

    assertThat(SecurityCredentials.isWellFormed(credential)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"Safaricom999!*!", "c2VjcmV0", "", "not base64!", "QUJD\nREVG"})
  void aPasswordOrAShortTextIsNot(String text) {
    assertThat(SecurityCredentials.isWellFormed(text)).isFalse();
  }

  @Test
  void aBlockOfAnOddLengthIsNot() {
    assertThat(SecurityCredentials.isWellFormed(Base64.getEncoder().encodeToString(new byte[200]))).isFalse();
    assertThat(SecurityCredentials.isWellFormed(null)).isFalse();
  }

  @Test
  void aFingerprintNamesTheValueWithoutShowingIt() {
    assertThat(Fingerprints.of("consumer-secret")).startsWith("sha256:").hasSize(19)
        .doesNotContain("consumer").isEqualTo(Fingerprints.of("consumer-secret"))
        .isNotEqualTo(Fingerprints.of("consumer-secreT"));
    assertThat(Fingerprints.of(null)).isNull();
  }
}
