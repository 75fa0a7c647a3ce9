package dev.lipa.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class UnreadableJsonTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();

  private static UnreadableJson failureOf(String body) {
    Throwable thrown = catchThrowable(() -> JSON.readTree(body));
    assertThat(thrown).as("reading %s", body).isNotNull();
    return UnreadableJson.of(new RuntimeException("wrapped as Spring does", thrown)).orElseThrow();
  }

  static Stream<Arguments> unreadableFields() {
    return Stream.of(
        Arguments.of(Named.named("NaN", "{\"amount\":NaN}"), "amount",
            "amount must be a JSON number (NaN and Infinity are not numbers)"),
        Arguments.of(Named.named("Infinity", "{\"amount\":Infinity}"), "amount",
            "amount must be a JSON number (NaN and Infinity are not numbers)"),
        Arguments.of(Named.named("-Infinity", "{\"amount\":-Infinity}"), "amount",
            "amount must be a JSON number (NaN and Infinity are not numbers)"),
        Arguments.of(Named.named("an exponent beyond an int", "{\"amount\":1e9999999999}"), "amount",
            "amount is out of range"),
        Arguments.of(Named.named("a nested field", "{\"data\":{\"amount\":NaN}}"), "data.amount",
            "data.amount must be a JSON number (NaN and Infinity are not numbers)"),
        Arguments.of(Named.named("a duplicate", "{\"amount\":1,\"amount\":2}"), "amount", "amount must appear only once"),
        Arguments.of(Named.named("a cut-off body", "{\"amount\":"), "body", "body must be a valid JSON object"),
        Arguments.of(Named.named("a stray comma", "{\"amount\":1,}"), "body", "body must be a valid JSON object"),
        Arguments.of(Named.named("not JSON at all", "amount=10"), "body", "body must be a valid JSON object"));
  }

  @ParameterizedTest
  @MethodSource("unreadableFields")
  void namesTheFieldOfARefusedValueAndTheBodyForABrokenStructure(String body, String field, String message) {
    assertThat(failureOf(body)).isEqualTo(new UnreadableJson(field, message));
  }

  static Stream<Named<String>> pastTheLimits() {
    return Stream.of(
        Named.named("a number of 65 characters", "{\"amount\":" + "1".repeat(65) + "}"),
        Named.named("a string of 64 KiB and one", "{\"a\":\"" + "x".repeat(64 * 1024 + 1) + "\"}"),
        Named.named("a name of 257 characters", "{\"" + "n".repeat(257) + "\":1}"),
        Named.named("33 levels of nesting", "[".repeat(33) + "]".repeat(33)),
        Named.named("a document over 1 MiB", "[" + "1,".repeat(600_000) + "1]"));
  }

  @ParameterizedTest
  @MethodSource("pastTheLimits")
  void refusesDocumentsPastThePlatformsLimits(String body) {
    assertThat(failureOf(body).field()).isEqualTo("body");
    assertThat(failureOf(body).message()).startsWith("body exceeds the platform's JSON limits");
  }

  @Test
  void readsDocumentsAtTheLimits() {
    JSON.readTree("{\"amount\":" + "1".repeat(64) + "}");
    JSON.readTree("{\"a\":\"" + "x".repeat(64 * 1024) + "\"}");
    JSON.readTree("[".repeat(32) + "]".repeat(32));
  }

  @Test
  void findsNothingInAFailureThatIsNotAboutJson() {
    assertThat(UnreadableJson.of(new IllegalStateException("no body"))).isEmpty();
  }
}
