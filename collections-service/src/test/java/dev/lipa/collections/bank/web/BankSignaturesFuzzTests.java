package dev.lipa.collections.bank.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * The partner banks' signature check, over any bank code, header and body: it answers true or false and nothing else,
 * true only for the header the bank's secret makes for that body, and never for the same header over other bytes.
 */
class BankSignaturesFuzzTests {

  private static final String SECRET = "a-shared-secret-of-the-test-bank-123456";
  private static final Instant NOW = Instant.parse("2025-06-01T09:00:00Z");
  private final BankSignatures signatures = new BankSignatures(Map.of("testbank", SECRET), Duration.ofMinutes(5),
      Clock.fixed(NOW, ZoneOffset.UTC));

  @FuzzTest(maxDuration = "5s")
  void answersTrueOnlyForTheBanksOwnSignatureOfTheseBytes(FuzzedDataProvider data) {
    String bank = data.pickValue(new String[] {"testbank", "otherbank", ""});
    String header = data.consumeString(1200);
    long skew = data.consumeLong(-400, 400);
    byte[] body = data.consumeRemainingAsBytes();

    boolean forged = signatures.verify(bank, header, body);
    String genuine = BankSignatures.sign(SECRET, NOW.getEpochSecond() + skew, body);
    if (forged) {
      // a header the fuzzer made up passed: only possible if it carries the genuine v1 for its own t and this body
      assertThat(bank).isEqualTo("testbank");
      java.util.regex.Matcher t = java.util.regex.Pattern.compile("t=\\s*([0-9]{1,12})").matcher(header);
      assertThat(t.find()).isTrue();
      String own = BankSignatures.sign(SECRET, Long.parseLong(t.group(1)), body);
      assertThat(header.toLowerCase()).contains(own.substring(own.indexOf("v1=") + 3));
    }
    assertThat(signatures.verify(bank, genuine, body)).isEqualTo(bank.equals("testbank") && Math.abs(skew) <= 300);
    byte[] other = java.util.Arrays.copyOf(body, body.length + 1);
    assertThat(signatures.verify(bank, genuine, other)).isFalse();
  }
}
