package dev.lipa.common.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.json.PlatformJson;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class RequestFingerprintTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();

  private static String fingerprint(String body) {
    return RequestFingerprint.of(JSON.readTree(body));
  }

  @Test
  void isTheSha256HexOfTheCanonicalJson() {
    assertThat(RequestFingerprint.canonical(JSON.readTree("{ \"b\" : [1, {\"d\":true,\"c\":null}], \"a\":\"x\" }")))
        .isEqualTo("{\"a\":\"x\",\"b\":[1,{\"c\":null,\"d\":true}]}");
    // sha256("{}")
    assertThat(fingerprint("{}"))
        .isEqualTo("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  }

  static Stream<Arguments> sameRequests() {
    return Stream.of(
        Arguments.of(named("whitespace and newlines", "{\n  \"amount\" : 10 ,\"phoneNumber\":\"0712345678\"\n}")),
        Arguments.of(named("another key order", "{\"phoneNumber\":\"0712345678\",\"amount\":10}")),
        Arguments.of(named("10.0 for 10", "{\"amount\":10.0,\"phoneNumber\":\"0712345678\"}")),
        Arguments.of(named("1E+1 for 10", "{\"amount\":1E+1,\"phoneNumber\":\"0712345678\"}")));
  }

  @ParameterizedTest(name = "ignores {0}")
  @MethodSource("sameRequests")
  void bodiesThatMeanTheSameHaveTheSameFingerprint(String body) {
    assertThat(fingerprint(body)).isEqualTo(fingerprint("{\"amount\":10,\"phoneNumber\":\"0712345678\"}"));
  }

  static Stream<Arguments> differentRequests() {
    return Stream.of(
        Arguments.of(named("another amount", "{\"amount\":11,\"phoneNumber\":\"0712345678\"}")),
        Arguments.of(named("the amount as a string", "{\"amount\":\"10\",\"phoneNumber\":\"0712345678\"}")),
        Arguments.of(named("an extra field", "{\"amount\":10,\"phoneNumber\":\"0712345678\",\"x\":1}")),
        Arguments.of(named("an explicit null", "{\"amount\":10,\"phoneNumber\":\"0712345678\",\"x\":null}")),
        Arguments.of(named("another case in a value", "{\"amount\":10,\"phoneNumber\":\"0712345678 \"}")),
        Arguments.of(named("an array for a string", "{\"amount\":10,\"phoneNumber\":[\"07\",\"12\"]}")));
  }

  @ParameterizedTest(name = "tells apart {0}")
  @MethodSource("differentRequests")
  void bodiesThatDifferHaveDifferentFingerprints(String body) {
    assertThat(fingerprint(body)).isNotEqualTo(fingerprint("{\"amount\":10,\"phoneNumber\":\"0712345678\"}"));
  }

  @Test
  void escapesStringsSoThatKeysCannotBeForged() {
    assertThat(fingerprint("{\"a\":\"x\\\",\\\"b\\\":\\\"y\"}")).isNotEqualTo(fingerprint("{\"a\":\"x\",\"b\":\"y\"}"));
    assertThat(RequestFingerprint.canonical(JSON.readTree("{\"é\":\"\\u00e9\"}"))).isEqualTo("{\"é\":\"é\"}");
  }

  @Test
  void writesANumberWhosePlainFormIsHugeWithItsExponentInsteadOfExpandingIt() {
    assertThat(RequestFingerprint.canonical(JSON.readTree("{\"x\":1e200000000,\"y\":-25e-200000000}")))
        .isEqualTo("{\"x\":1E200000000,\"y\":-25E-200000000}");
    assertThat(RequestFingerprint.canonical(JSON.readTree("{\"x\":100E2147483647}"))).isEqualTo("{\"x\":1E2147483649}");
  }

  static Stream<Arguments> sameHugeNumbers() {
    return Stream.of(
        Arguments.of(named("trailing zeros in the digits", "{\"x\":10e199999999}")),
        Arguments.of(named("a decimal point", "{\"x\":1.000e200000000}")),
        Arguments.of(named("an explicit plus", "{\"x\":1E+200000000}")));
  }

  @ParameterizedTest(name = "ignores {0}")
  @MethodSource("sameHugeNumbers")
  void hugeNumbersThatMeanTheSameHaveTheSameFingerprint(String body) {
    assertThat(fingerprint(body)).isEqualTo(fingerprint("{\"x\":1e200000000}"));
  }

  @Test
  void hugeNumbersThatDifferHaveDifferentFingerprints() {
    assertThat(fingerprint("{\"x\":1e200000001}")).isNotEqualTo(fingerprint("{\"x\":1e200000000}"));
    assertThat(fingerprint("{\"x\":2e200000000}")).isNotEqualTo(fingerprint("{\"x\":1e200000000}"));
    assertThat(fingerprint("{\"x\":-1e200000000}")).isNotEqualTo(fingerprint("{\"x\":1e200000000}"));
    assertThat(fingerprint("{\"x\":\"1E200000000\"}")).isNotEqualTo(fingerprint("{\"x\":1e200000000}"));
  }

  @Test
  void keepsThePlainFormUpToItsLimitSoStoredFingerprintsStillMatch() {
    // 1e1023 has a plain form of 1,024 characters: fingerprinted before this rule as its plain digits, and still
    assertThat(RequestFingerprint.canonical(JSON.readTree("{\"x\":1e1023}"))).isEqualTo("{\"x\":1" + "0".repeat(1023) + "}");
    assertThat(RequestFingerprint.canonical(JSON.readTree("{\"x\":1e1024}"))).isEqualTo("{\"x\":1E1024}");
  }
}
