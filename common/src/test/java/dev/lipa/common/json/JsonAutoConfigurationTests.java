package dev.lipa.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.json.JsonMapper;

/** Spring's own JsonMapper, the one every service reads bodies and events with, carries the limits and conventions. */
class JsonAutoConfigurationTests {

  private final ApplicationContextRunner context = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, JsonAutoConfiguration.class));

  @Test
  void holdsSpringsMapperToThePlatformsLimitsEvenAfterBootsOwnDefaults() {
    context.run(app -> {
      JsonMapper json = app.getBean(JsonMapper.class);
      assertThat(json.tokenStreamFactory().streamReadConstraints().getMaxNumberLength())
          .isEqualTo(JsonLimits.MAX_NUMBER_LENGTH);
      assertThatThrownBy(() -> json.readTree("{\"amount\":" + "1".repeat(65) + "}"))
          .isInstanceOf(StreamConstraintsException.class);
      assertThatThrownBy(() -> json.readTree("[".repeat(33) + "]".repeat(33)))
          .isInstanceOf(StreamConstraintsException.class);
    });
  }

  @Test
  void makesAnUnreadableNumberAReadErrorAndKeepsDecimalsExact() {
    context.run(app -> {
      JsonMapper json = app.getBean(JsonMapper.class);
      assertThatThrownBy(() -> json.readTree("{\"amount\":1e9999999999}")).isInstanceOf(JacksonException.class);
      assertThat(json.readTree("{\"amount\":0.1}").get("amount").decimalValue()).isEqualTo(new BigDecimal("0.1"));
      assertThatThrownBy(() -> json.readTree("{\"amount\":1,\"amount\":2}")).isInstanceOf(JacksonException.class);
    });
  }
}
