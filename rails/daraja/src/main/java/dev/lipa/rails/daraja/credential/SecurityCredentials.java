package dev.lipa.rails.daraja.credential;

import java.io.ByteArrayInputStream;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;

/**
 * Daraja's {@code SecurityCredential}: the initiator's password encrypted with Safaricom's public certificate for the
 * environment (RSA, PKCS#1 v1.5 padding), in base64. The operator runs it once per initiator password (the
 * {@link #main} command); the platform stores only the result, never the password.
 */
public final class SecurityCredentials {

  private SecurityCredentials() {
  }

  /** Encrypts the password with the certificate's public key; a fresh random padding each time. */
  public static String encrypt(char[] password, X509Certificate certificate) {
    ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
    byte[] bytes = new byte[encoded.remaining()];
    encoded.get(bytes);
    try {
      Cipher rsa = Cipher.getInstance("RSA/ECB/PKCS1Padding");
      rsa.init(Cipher.ENCRYPT_MODE, certificate.getPublicKey());
      return Base64.getEncoder().encodeToString(rsa.doFinal(bytes));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("the certificate cannot encrypt the password: " + e.getMessage(), e);
    } finally {
      Arrays.fill(bytes, (byte) 0);
      if (encoded.hasArray()) {
        Arrays.fill(encoded.array(), (byte) 0);
      }
    }
  }

  /**
   * Whether a text can be a security credential: base64 of one RSA block of a 1024- to 8192-bit key (128 to 1024
   * bytes, whole bytes of a key size). A password typed where the credential belongs fails this (it is too short, or
   * not base64, or not a block's length), so an operator API can refuse it before it is stored or sent.
   */
  public static boolean isWellFormed(String credential) {
    if (credential == null || credential.length() > 2048 || !credential.matches("[A-Za-z0-9+/]+={0,2}")) {
      return false;
    }
    byte[] block;
    try {
      block = Base64.getDecoder().decode(credential);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return block.length >= 128 && block.length <= 1024 && block.length % 64 == 0;
  }

  /** Reads an X.509 certificate, PEM or DER (Safaricom publishes {@code .cer} files in PEM). */
  public static X509Certificate readCertificate(InputStream in) throws IOException {
    try {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    } catch (CertificateException e) {
      throw new IOException("not an X.509 certificate: " + e.getMessage(), e);
    }
  }

  /** Reads an X.509 certificate from a file. */
  public static X509Certificate readCertificate(Path file) throws IOException {
    return readCertificate(new ByteArrayInputStream(Files.readAllBytes(file)));
  }

  /**
   * {@code java -cp daraja-connector.jar dev.lipa.rails.daraja.credential.SecurityCredentials <certificate.cer>}: asks
   * for the initiator's password without echoing it (or reads one line from standard input when there is no console)
   * and prints the security credential. The password is never an argument, so it never shows in a process list.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: SecurityCredentials <Safaricom certificate (.cer) of the environment>");
      System.exit(2);
      return;
    }
    X509Certificate certificate = readCertificate(Path.of(args[0]));
    char[] password;
    Console console = System.console();
    if (console != null) {
      password = console.readPassword("initiator password: ");
    } else {
      String line = new String(System.in.readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElse("");
      password = line.toCharArray();
    }
    if (password == null || password.length == 0) {
      System.err.println("no password given");
      System.exit(2);
      return;
    }
    try {
      System.out.println(encrypt(password, certificate));
    } finally {
      Arrays.fill(password, '\0');
    }
  }
}
