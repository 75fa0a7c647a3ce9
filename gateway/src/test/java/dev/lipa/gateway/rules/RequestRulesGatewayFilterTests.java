package dev.lipa.gateway.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestRulesGatewayFilterTests {

  @ParameterizedTest
  @ValueSource(strings = {"application/json", "APPLICATION/JSON", "application/json;charset=UTF-8",
      "application/json; charset=utf-8", " application/json "})
  void acceptsJsonWithOrWithoutParameters(String contentType) {
    assertThat(RequestRulesGatewayFilter.isJson(contentType)).isTrue();
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "text/plain", "application/jsonp", "application/json-patch+json",
      "application/x-www-form-urlencoded", "application/xml", "json"})
  void refusesAnythingElse(String contentType) {
    assertThat(RequestRulesGatewayFilter.isJson(contentType)).isFalse();
  }
}
