package dev.lipa.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OperatorTokensTests {

  private static final String SHARED = "shared-operator-token-0123456789abcdef";
  private static final String AMINA = "amina-operator-token-0123456789abcdef";
  private static final String DEPLOY = "deploy-operator-token-0123456789abcdef";

  private final OperatorTokens tokens = OperatorTokens.of(SHARED, Map.of("amina", AMINA, "ci.deploy", DEPLOY));

  @Test
  void namesTheOperatorOfEachToken() {
    assertThat(tokens.identify(SHARED)).hasValue(OperatorTokens.DEFAULT_NAME);
    assertThat(tokens.identify(AMINA)).hasValue("amina");
    assertThat(tokens.identify(DEPLOY)).hasValue("ci.deploy");
  }

  @Test
  void namesNobodyForAMissingWrongOrPartToken() {
    assertThat(tokens.identify(null)).isEmpty();
    assertThat(tokens.identify("")).isEmpty();
    assertThat(tokens.identify(AMINA + "x")).isEmpty();
    assertThat(tokens.identify(AMINA.substring(1))).isEmpty();
    assertThat(tokens.identify(AMINA.toUpperCase())).isEmpty();
  }

  @Test
  void isConfiguredWithNamedTokensAlone() {
    OperatorTokens named = OperatorTokens.of(null, Map.of("amina", AMINA));

    assertThat(named.configured()).isTrue();
    assertThat(named.identify(AMINA)).hasValue("amina");
    assertThat(OperatorTokens.of("  ", Map.of()).configured()).isFalse();
    assertThat(OperatorTokens.of(null, Map.of("amina", "")).configured()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"unauthenticated", "Amina", "", "-dash", "has space", "x/y"})
  void refusesNamesAnAuditCouldNotShowPlainly(String name) {
    assertThatThrownBy(() -> OperatorTokens.of(SHARED, Map.of(name, AMINA)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesOneTokenUnderTwoNames() {
    assertThatThrownBy(() -> OperatorTokens.of(SHARED, Map.of("amina", SHARED)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another operator's token");
  }

  @Test
  void refusesTheDefaultNameTwice() {
    assertThatThrownBy(() -> OperatorTokens.of(SHARED, Map.of("operator", AMINA)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void pointsOutShortTokens() {
    assertThat(OperatorTokens.of("short", Map.of("amina", AMINA)).shorterThan(32)).containsExactly("operator");
  }
}
