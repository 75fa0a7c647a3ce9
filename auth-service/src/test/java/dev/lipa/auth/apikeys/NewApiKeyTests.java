package dev.lipa.auth.apikeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.web.ValidationException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class NewApiKeyTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String RULE = "environment must be \"sandbox\" or \"live\"";

  private static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  @Test
  void noBodyAndNoEnvironmentAreASandboxKey() {
    assertThat(NewApiKey.from(null).environment()).isEqualTo(Environment.SANDBOX);
    assertThat(NewApiKey.from(json("{}")).environment()).isEqualTo(Environment.SANDBOX);
  }

  @Test
  void namesEitherEnvironmentExactly() {
    assertThat(NewApiKey.from(json("{\"environment\":\"live\"}")).environment()).isEqualTo(Environment.LIVE);
    assertThat(NewApiKey.from(json("{\"environment\":\"sandbox\"}")).environment()).isEqualTo(Environment.SANDBOX);
  }

  static Stream<Arguments> invalidEnvironments() {
    return Stream.of(
        Named.named("upper case", "\"LIVE\""),
        Named.named("trailing space", "\"live \""),
        Named.named("upper case with spaces", "\" LIVE \""),
        Named.named("another name", "\"prod\""),
        Named.named("production", "\"production\""),
        Named.named("empty", "\"\""),
        Named.named("a number", "1"),
        Named.named("null", "null"),
        Named.named("true", "true"),
        Named.named("an array", "[\"live\"]"),
        Named.named("an object", "{\"name\":\"live\"}"),
        Named.named("a look-alike (Cyrillic e)", "\"liv\u0435\""),
        Named.named("an escaped name", "\"l\\u0069ve\\u0000\"")).map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("invalidEnvironments")
  void refusesAnyOtherEnvironment(String value) {
    assertThatThrownBy(() -> NewApiKey.from(json("{\"environment\":" + value + "}")))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.errors()).isEqualTo(Map.of("environment", List.of(RULE))));
  }

  @Test
  void refusesOtherFieldsByName() {
    assertThatThrownBy(() -> NewApiKey.from(json("{\"env\":\"live\"}")))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.errors()).isEqualTo(Map.of("env",
            List.of("env is not a field of this request; the only one is environment"))));
  }

  @Test
  void aBodyMustBeAnObject() {
    assertThatThrownBy(() -> NewApiKey.from(json("\"live\"")))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.errors()).containsOnlyKeys("body"));
  }
}
