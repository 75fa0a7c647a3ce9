package dev.lipa.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The platform's tracing and log-format defaults, and what overrides them. */
class TracingDefaultsTests {

  private static StandardEnvironment environment(Map<String, Object> given) {
    StandardEnvironment environment = new StandardEnvironment();
    // neither the test JVM's properties (the build samples every test span) nor the machine's variables count here
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    // what the process's own settings say (its environment variables, application.yml, a test's properties)
    environment.getPropertySources().addFirst(new MapPropertySource("given", given));
    new TracingDefaults().postProcessEnvironment(environment, new SpringApplication());
    return environment;
  }

  @Test
  void samplesATenthOfTheTracesObservesKafkaAndWritesTheLogFileAsJson() {
    StandardEnvironment environment = environment(Map.of());

    assertThat(environment.getProperty("management.tracing.sampling.probability")).isEqualTo("0.1");
    assertThat(environment.getProperty("management.tracing.propagation.type")).isEqualTo("w3c");
    assertThat(environment.getProperty("management.tracing.exemplars.include")).isEqualTo("none");
    assertThat(environment.getProperty("spring.kafka.template.observation-enabled")).isEqualTo("true");
    assertThat(environment.getProperty("spring.kafka.listener.observation-enabled")).isEqualTo("true");
    assertThat(environment.getProperty("logging.structured.format.file")).isEqualTo("ecs");
  }

  @Test
  void exportsNothingUnlessACollectorIsNamed() {
    assertThat(environment(Map.of()).containsProperty(TracingDefaults.OTLP_ENDPOINT)).isFalse();
    // Boot would create an exporter for an endpoint property that exists at all, even empty (the compose file's
    // LIPA_OTLP_ENDPOINT is empty when the shell names no collector)
    assertThat(environment(Map.of("LIPA_OTLP_ENDPOINT", "  ")).containsProperty(TracingDefaults.OTLP_ENDPOINT))
        .isFalse();

    StandardEnvironment named = environment(Map.of("LIPA_OTLP_ENDPOINT", "http://collector:4318/v1/traces"));

    assertThat(named.getProperty(TracingDefaults.OTLP_ENDPOINT)).isEqualTo("http://collector:4318/v1/traces");
  }

  @Test
  void theSamplingRateComesFromTheEnvironmentAndAServicesOwnSettingsWin() {
    assertThat(environment(Map.of("LIPA_TRACING_SAMPLING", "1.0"))
        .getProperty("management.tracing.sampling.probability")).isEqualTo("1.0");
    assertThat(environment(Map.of("management.tracing.sampling.probability", "0.5", "LIPA_TRACING_SAMPLING", "1.0"))
        .getProperty("management.tracing.sampling.probability")).isEqualTo("0.5");
    assertThat(environment(Map.of("logging.structured.format.file", "logstash"))
        .getProperty("logging.structured.format.file")).isEqualTo("logstash");
  }
}
