package dev.lipa.rails.daraja.credential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.daraja.simulator.TestCertificate;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;

class SecurityCredentialsTests {

  // the simulator's TEST-ONLY certificate and key stand in for Safaricom's
  private final TestCertificate test = TestCertificate.load();

  @Test
  void theCredentialDecryptsToThePasswordWithTheCertificatesKey() throws Exception {
    X509Certificate cert = SecurityCredentials.readCertificate(
        new ByteArrayInputStream(test.certificatePem().getBytes(StandardCharsets.US_ASCII)));
    String credential = SecurityCredentials.encrypt("Safaricom999!*!".toCharArray(), cert);
    assertThat(test.decrypt(credential)).contains("Safaricom999!*!");
  }

  @Test
  void eachEncryptionIsDifferentBecauseOfPkcs1sRandomPaddingAndIsBase64OfTheKeySize() {
    String a = SecurityCredentials.encrypt("pw".toCharArray(), test.certificate());
    String b = SecurityCredentials.encrypt("pw".toCharArray(), test.certificate());
    assertThat(a).isNotEqualTo(b);
    assertThat(java.util.Base64.getDecoder().decode(a)).hasSize(256); // RSA 2048
  }

  @Test
  void aCredentialMadeForAnotherPasswordDoesNotDecryptToThisOne() {
    String credential = SecurityCredentials.encrypt("other".toCharArray(), test.certificate());
    assertThat(test.decrypt(credential)).contains("other").isNotEqualTo(java.util.Optional.of("pw"));
    assertThat(test.decrypt("not base64 at all")).isEmpty();
  }

  @Test
  void somethingThatIsNotACertificateIsAnIoError() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SecurityCredentials.readCertificate(
        new ByteArrayInputStream("nope".getBytes(StandardCharsets.US_ASCII))))
        .isInstanceOf(java.io.IOException.class);
  }
}
