package dev.lipa.auth.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.web.ValidationException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class TokenRequestsTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  @Nested
  class GetToken {

    @Test
    void readsKeyAndSecret() {
      GetTokenRequest request = GetTokenRequest.from(json("{\"apiKey\":\"lk_sbx_abc\",\"apiSecret\":\"s3cret\"}"));

      assertThat(request.apiKey()).isEqualTo("lk_sbx_abc");
      assertThat(request.apiSecret()).isEqualTo("s3cret");
    }

    @Test
    void ignoresUnknownFields() {
      assertThat(GetTokenRequest.from(json("{\"apiKey\":\"k\",\"apiSecret\":\"s\",\"grant\":1}")).apiKey())
          .isEqualTo("k");
    }

    @Test
    void neverShowsTheSecretInItsText() {
      assertThat(new GetTokenRequest("k", "s3cret-value").toString()).doesNotContain("s3cret-value");
    }

    static Stream<Arguments> invalidBodies() {
      String longKey = "k".repeat(GetTokenRequest.API_KEY_MAX + 1);
      String longSecret = "s".repeat(GetTokenRequest.API_SECRET_MAX + 1);
      return Stream.of(
          Arguments.of(Named.named("apiKey missing", "{\"apiSecret\":\"s\"}"),
              Map.of("apiKey", List.of("apiKey is required"))),
          Arguments.of(Named.named("apiKey null", "{\"apiKey\":null,\"apiSecret\":\"s\"}"),
              Map.of("apiKey", List.of("apiKey is required"))),
          Arguments.of(Named.named("apiKey blank", "{\"apiKey\":\"  \",\"apiSecret\":\"s\"}"),
              Map.of("apiKey", List.of("apiKey is required"))),
          Arguments.of(Named.named("apiKey a number", "{\"apiKey\":12345,\"apiSecret\":\"s\"}"),
              Map.of("apiKey", List.of("apiKey must be a string"))),
          Arguments.of(Named.named("apiKey an object", "{\"apiKey\":{\"$ne\":\"\"},\"apiSecret\":\"s\"}"),
              Map.of("apiKey", List.of("apiKey must be a string"))),
          Arguments.of(Named.named("apiKey too long", "{\"apiKey\":\"" + longKey + "\",\"apiSecret\":\"s\"}"),
              Map.of("apiKey", List.of("apiKey must be at most 128 characters"))),
          Arguments.of(Named.named("apiSecret missing", "{\"apiKey\":\"k\"}"),
              Map.of("apiSecret", List.of("apiSecret is required"))),
          Arguments.of(Named.named("apiSecret empty", "{\"apiKey\":\"k\",\"apiSecret\":\"\"}"),
              Map.of("apiSecret", List.of("apiSecret is required"))),
          Arguments.of(Named.named("apiSecret a boolean", "{\"apiKey\":\"k\",\"apiSecret\":true}"),
              Map.of("apiSecret", List.of("apiSecret must be a string"))),
          Arguments.of(Named.named("apiSecret an array", "{\"apiKey\":\"k\",\"apiSecret\":[\"s\"]}"),
              Map.of("apiSecret", List.of("apiSecret must be a string"))),
          Arguments.of(Named.named("apiSecret too long", "{\"apiKey\":\"k\",\"apiSecret\":\"" + longSecret + "\"}"),
              Map.of("apiSecret", List.of("apiSecret must be at most 256 characters"))),
          Arguments.of(Named.named("both missing", "{}"),
              Map.of("apiKey", List.of("apiKey is required"), "apiSecret", List.of("apiSecret is required"))),
          Arguments.of(Named.named("body an array", "[{\"apiKey\":\"k\",\"apiSecret\":\"s\"}]"),
              Map.of("body", List.of("must be a JSON object"))),
          Arguments.of(Named.named("body a string", "\"k:s\""),
              Map.of("body", List.of("must be a JSON object"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidBodies")
    void namesEveryFailingField(String body, Map<String, List<String>> expected) {
      assertThatThrownBy(() -> GetTokenRequest.from(json(body)))
          .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.errors()).isEqualTo(expected));
    }
  }

  @Nested
  class RefreshToken {

    @Test
    void readsTheToken() {
      assertThat(RefreshTokenRequest.from(json("{\"refresh_token\":\"a.b.c\"}")).refreshToken()).isEqualTo("a.b.c");
    }

    static Stream<Arguments> invalidBodies() {
      return Stream.of(
          Arguments.of(Named.named("refresh_token missing", "{}"), "refresh_token is required"),
          Arguments.of(Named.named("camelCase name instead", "{\"refreshToken\":\"a.b.c\"}"),
              "refresh_token is required"),
          Arguments.of(Named.named("refresh_token a number", "{\"refresh_token\":1}"),
              "refresh_token must be a string"),
          Arguments.of(Named.named("refresh_token too long", "{\"refresh_token\":\"" + "a".repeat(4097) + "\"}"),
              "refresh_token must be at most 4096 characters"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidBodies")
    void refusesTheField(String body, String message) {
      assertThatThrownBy(() -> RefreshTokenRequest.from(json(body)))
          .isInstanceOfSatisfying(ValidationException.class,
              e -> assertThat(e.errors()).isEqualTo(Map.of("refresh_token", List.of(message))));
    }
  }
}
