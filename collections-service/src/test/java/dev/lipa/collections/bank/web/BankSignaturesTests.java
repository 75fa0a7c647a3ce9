package dev.lipa.collections.bank.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BankSignaturesTests {

  private static final String SECRET = "a-shared-secret-of-the-test-bank-123456";
  private static final Instant NOW = Instant.parse("2025-06-01T09:00:00Z");
  private static final byte[] BODY = "{\"transactionref\":\"FT1\",\"amount\":\"10.00\"}"
      .getBytes(StandardCharsets.UTF_8);

  private final BankSignatures signatures = new BankSignatures(Map.of("testbank", SECRET), Duration.ofMinutes(5),
      Clock.fixed(NOW, ZoneOffset.UTC));

  private static long now() {
    return NOW.getEpochSecond();
  }

  @Test
  void acceptsAFreshSignatureOfTheExactBody() {
    assertThat(signatures.verify("testbank", BankSignatures.sign(SECRET, now(), BODY), BODY)).isTrue();
  }

  @Test
  void matchesAnIndependentlyComputedHmac() throws Exception {
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(new javax.crypto.spec.SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    String hex = java.util.HexFormat.of().formatHex(mac.doFinal(
        (now() + "." + new String(BODY, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));

    assertThat(signatures.verify("testbank", "t=" + now() + ",v1=" + hex.toUpperCase(), BODY)).isTrue();
  }

  @Test
  void refusesASignatureMadeWithAnotherSecret() {
    assertThat(signatures.verify("testbank", BankSignatures.sign(SECRET + "x", now(), BODY), BODY)).isFalse();
  }

  @Test
  void refusesATamperedBody() {
    byte[] tampered = "{\"transactionref\":\"FT1\",\"amount\":\"99.00\"}".getBytes(StandardCharsets.UTF_8);

    assertThat(signatures.verify("testbank", BankSignatures.sign(SECRET, now(), BODY), tampered)).isFalse();
  }

  @Test
  void refusesTimestampsMoreThanFiveMinutesOffEitherWay() {
    assertThat(signatures.verify("testbank", BankSignatures.sign(SECRET, now() - 301, BODY), BODY)).isFalse();
    assertThat(signatures.verify("testbank", BankSignatures.sign(SECRET, now() + 301, BODY), BODY)).isFalse();
    assertThat(signatures.verify("testbank", BankSignatures.sign(SECRET, now() - 300, BODY), BODY)).isTrue();
  }

  @Test
  void refusesAnUnknownBankEvenWithAValidLookingSignature() {
    assertThat(signatures.verify("otherbank", BankSignatures.sign(SECRET, now(), BODY), BODY)).isFalse();
  }

  @Test
  void refusesMalformedHeaders() {
    String valid = BankSignatures.sign(SECRET, now(), BODY);
    assertThat(signatures.verify("testbank", null, BODY)).isFalse();
    assertThat(signatures.verify("testbank", "", BODY)).isFalse();
    assertThat(signatures.verify("testbank", valid.replace("t=", "ts="), BODY)).isFalse();
    assertThat(signatures.verify("testbank", "t=" + now(), BODY)).isFalse();
    assertThat(signatures.verify("testbank", valid + ",t=" + now(), BODY)).isFalse();
    assertThat(signatures.verify("testbank", "garbage", BODY)).isFalse();
  }

  @Test
  void acceptsOneValidSignatureAmongSeveralWhileASecretIsRotated() {
    String old = BankSignatures.sign("the-old-secret-that-was-rotated-away", now(), BODY);
    String current = BankSignatures.sign(SECRET, now(), BODY);

    assertThat(signatures.verify("testbank", old + "," + current.substring(current.indexOf("v1=")), BODY)).isTrue();
  }
}
