package dev.lipa.common.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class EnvironmentTests {

  @ParameterizedTest
  @CsvSource({
      "/api/sandbox/v1/stk/new, SANDBOX",
      "/api/sandbox/v1/balance/current, SANDBOX",
      "/api/v1/stk/new, LIVE",
      "/api/v1/send-money/single, LIVE",
      "/api/v1/checkout-sessions, LIVE",
      "/api/v1/balances/list, LIVE",
      "/api/v1/de-allocations/new, LIVE"})
  void tellsTheEnvironmentOfAnOperationalPath(String path, Environment expected) {
    assertThat(Environment.ofPath(path)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/api/v1/get-token", "/api/v1/refresh-token", "/api/v1/tz/collections/lookup",
      "/api/v1/callbacks/secret", "/api/v1/stkx/new", "/api/v1", "/api/v1/", "/admin/v1/organisations",
      "/checkout/abc", "/api/sandboxx/v1/stk/new", "/api/V1/stk/new"})
  void namesNoEnvironmentForAPathThatCarriesNone(String path) {
    assertThat(Environment.ofPath(path)).isNull();
  }

  @ParameterizedTest
  @CsvSource({"sandbox, SANDBOX", "live, LIVE", "LIVE, LIVE", "' Sandbox ', SANDBOX"})
  void readsTheConfiguredName(String name, Environment expected) {
    assertThat(Environment.of(name)).isEqualTo(expected);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"production", "test", "sandbox-2", "liv"})
  void refusesAnyOtherName(String name) {
    assertThatThrownBy(() -> Environment.of(name)).isInstanceOf(IllegalArgumentException.class);
  }

  @org.junit.jupiter.api.Test
  void takesATokenWithoutTheClaimForASandboxToken() {
    assertThat(Environment.fromClaim(null)).isEqualTo(Environment.SANDBOX);
    assertThat(Environment.SANDBOX.wrongPathMessage()).contains("sandbox key");
    assertThat(Environment.LIVE.wrongPathMessage()).contains("live key");
  }
}
