package dev.lipa.daraja.simulator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;

/**
 * The simulator's own certificate and private key (TEST ONLY, public in this repository: see the README beside them),
 * standing in for Safaricom's: a client encrypts the initiator's password with the certificate, the simulator decrypts
 * it with the key.
 */
public final class TestCertificate {

  private static final String DIR = "/dev/lipa/daraja/simulator/";

  private final X509Certificate certificate;
  private final String certificatePem;
  private final PrivateKey privateKey;

  private TestCertificate(X509Certificate certificate, String certificatePem, PrivateKey privateKey) {
    this.certificate = certificate;
    this.certificatePem = certificatePem;
    this.privateKey = privateKey;
  }

  /** The checked-in test material. */
  public static TestCertificate load() {
    try {
      String pem = resource("test-only-certificate.pem");
      X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
      String key = resource("test-only-private-key.pem")
          .replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "")
          .replaceAll("\\s", "");
      PrivateKey privateKey = KeyFactory.getInstance("RSA")
          .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(key)));
      return new TestCertificate(cert, pem, privateKey);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the simulator's test certificate cannot be read", e);
    }
  }

  public X509Certificate certificate() {
    return certificate;
  }

  /** The certificate in PEM, as Safaricom publishes its {@code .cer} files. */
  public String certificatePem() {
    return certificatePem;
  }

  /** The password inside a security credential, or empty when it is not one made with this certificate. */
  public Optional<String> decrypt(String securityCredential) {
    if (securityCredential == null || securityCredential.length() > 2048) {
      return Optional.empty();
    }
    try {
      Cipher rsa = Cipher.getInstance("RSA/ECB/PKCS1Padding");
      rsa.init(Cipher.DECRYPT_MODE, privateKey);
      byte[] plain = rsa.doFinal(Base64.getDecoder().decode(securityCredential.strip()));
      return Optional.of(new String(plain, StandardCharsets.UTF_8));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static String resource(String name) {
    try (InputStream in = TestCertificate.class.getResourceAsStream(DIR + name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + DIR + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
