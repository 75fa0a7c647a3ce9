package dev.lipa.common.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.events.Topics;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The names of a stack's environment: topics, consumer groups, databases, paths; and what refuses to start. */
class StackEnvironmentTests {

  private static StandardEnvironment settings(Map<String, Object> given) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().addFirst(new MapPropertySource("given", given));
    new EnvironmentDefaults().postProcessEnvironment(environment, new SpringApplication());
    return environment;
  }

  @Nested
  class Sandbox {

    @Test
    void isTheDefaultAndKeepsThePlatformsNamesExactly() {
      StackEnvironment stack = StackEnvironment.of(settings(Map.of()));

      assertThat(stack.isSandbox()).isTrue();
      assertThat(stack.isLive()).isFalse();
      assertThat(stack.topic(Topics.COLLECTIONS)).isEqualTo("payments.collections.v1");
      assertThat(stack.topic(Topics.CALLBACKS)).isEqualTo("payments.callbacks.v1");
      assertThat(stack.groupId("payouts-ledger")).isEqualTo("payouts-ledger");
      assertThat(stack.database("lipa-payouts")).isEqualTo("lipa-payouts");
      assertThat(stack.apiBase()).isEqualTo("/api/sandbox/v1");
    }

    @Test
    void settingsForAnnotationsAndConfigurationAreTheSandboxNames() {
      StandardEnvironment environment = settings(Map.of());

      assertThat(environment.resolvePlaceholders(Topics.OfEnvironment.COLLECTIONS)).isEqualTo(Topics.COLLECTIONS);
      assertThat(environment.resolvePlaceholders(Topics.OfEnvironment.PAYOUTS)).isEqualTo(Topics.PAYOUTS);
      assertThat(environment.resolvePlaceholders(Topics.OfEnvironment.CHECKOUT)).isEqualTo(Topics.CHECKOUT);
      assertThat(environment.resolvePlaceholders(Topics.OfEnvironment.CALLBACKS)).isEqualTo(Topics.CALLBACKS);
      assertThat(environment.resolvePlaceholders("payouts-ledger" + Topics.OfEnvironment.GROUP_SUFFIX))
          .isEqualTo("payouts-ledger");
      assertThat(environment.resolvePlaceholders("lipa-collections${lipa.stack.suffix}")).isEqualTo("lipa-collections");
    }
  }

  @Nested
  class Live {

    @ParameterizedTest
    @ValueSource(strings = {"live", "LIVE", " Live "})
    void isNamedInAnyCase(String name) {
      assertThat(StackEnvironment.of(settings(Map.of("lipa.environment", name))).isLive()).isTrue();
    }

    @Test
    void prefixesEveryOperationalTopicAndSuffixesGroupsAndDatabases() {
      StackEnvironment stack = StackEnvironment.LIVE;

      assertThat(stack.topic(Topics.COLLECTIONS)).isEqualTo("live.payments.collections.v1");
      assertThat(stack.topic(Topics.PAYOUTS)).isEqualTo("live.payments.payouts.v1");
      assertThat(stack.topic(Topics.CHECKOUT)).isEqualTo("live.payments.checkout.v1");
      assertThat(stack.topic(Topics.CALLBACKS)).isEqualTo("live.payments.callbacks.v1");
      assertThat(stack.groupId("payouts-ledger")).isEqualTo("payouts-ledger-live");
      assertThat(stack.database("lipa-collections")).isEqualTo("lipa-collections-live");
      assertThat(stack.apiBase()).isEqualTo("/api/v1");
    }

    @Test
    void sharesTheOrganisationsTopicWithTheSandbox() {
      assertThat(StackEnvironment.LIVE.topic(Topics.ORGANISATIONS)).isEqualTo(Topics.ORGANISATIONS);
      assertThat(settings(Map.of("lipa.environment", "live")).getProperty("lipa.topics.organisations"))
          .isEqualTo("payments.organisations.v1");
    }

    @Test
    void settingsForAnnotationsAndConfigurationAreTheLiveNames() {
      StandardEnvironment environment = settings(Map.of("lipa.environment", "live"));

      assertThat(environment.resolvePlaceholders(Topics.OfEnvironment.COLLECTIONS))
          .isEqualTo("live.payments.collections.v1");
      assertThat(environment.resolvePlaceholders(Topics.OfEnvironment.CALLBACKS))
          .isEqualTo("live.payments.callbacks.v1");
      assertThat(environment.resolvePlaceholders("checkout-stk-outcomes" + Topics.OfEnvironment.GROUP_SUFFIX))
          .isEqualTo("checkout-stk-outcomes-live");
      assertThat(environment.resolvePlaceholders("lipa-checkout${lipa.stack.suffix}")).isEqualTo("lipa-checkout-live");
      assertThat(environment.getProperty(EnvironmentDefaults.API_BASE)).isEqualTo("/api/v1");
    }

    @Test
    void aServicesOwnSettingWinsOverTheDefault() {
      StandardEnvironment environment = settings(Map.of("lipa.environment", "live",
          "lipa.topics.callbacks", "live.payments.callbacks.v2"));

      assertThat(environment.getProperty("lipa.topics.callbacks")).isEqualTo("live.payments.callbacks.v2");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"production", "prod", "sandbox,live", "lіve", "live ."})
  void anyOtherNameRefusesToStartAndSaysWhatIsAccepted(String name) {
    assertThatThrownBy(() -> settings(Map.of("lipa.environment", name)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("lipa.environment")
        .hasMessageContaining("sandbox or live");
  }

  @Test
  void anEmptySettingIsTheSandbox() {
    assertThat(StackEnvironment.of(settings(Map.of("lipa.environment", ""))).isSandbox()).isTrue();
  }
}
