package dev.lipa.common.tracing;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The platform's tracing and log-format policy, decided once for every service and the gateway (docs/operations.md,
 * "Traces and logs"), as defaults below everything else: a service's own {@code application.yml}, the environment or
 * a test's properties override any of them.
 *
 * <ul>
 *   <li>spans sampled at {@code LIPA_TRACING_SAMPLING} (default 0.1, the tests run at 1.0); the W3C context is
 *       propagated whether the span is sampled or not (OpenTelemetry's parent-based sampler: every hop follows the
 *       decision of the trace's first span);
 *   <li>no exemplars on the Prometheus page (Prometheus 2.x refuses a scrape with exemplars on a timer's count);
 *   <li>spring-kafka's observation on every {@code KafkaTemplate} and every listener container (Boot's configurer
 *       builds every factory of the platform, the ledger's batch factory too);
 *   <li>OTLP export only when {@code LIPA_OTLP_ENDPOINT} names a collector (OTLP over HTTP, e.g.
 *       {@code http://otel-collector:4318/v1/traces}): Boot creates the exporter as soon as its endpoint property
 *       exists, even empty, so the property is set only when the variable has a value;
 *   <li>the log file in Spring Boot's structured JSON (Elastic Common Schema), one object a line with the trace and
 *       span ids and the MDC's organisation and requestId; the console keeps the readable text unless
 *       {@code LOGGING_STRUCTURED_FORMAT_CONSOLE=ecs} (the chart and the compose file set it).
 * </ul>
 */
public class TracingDefaults implements EnvironmentPostProcessor {

  static final String SOURCE = "lipaTracingDefaults";
  static final String OTLP_ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("management.tracing.sampling.probability", "${LIPA_TRACING_SAMPLING:0.1}");
    defaults.put("management.tracing.propagation.type", "w3c");
    // no exemplars on /actuator/prometheus: Prometheus 2.x (Debian's, ./platform up --observe) refuses a whole scrape
    // that carries one on a timer's _count ("does not support exemplars"), and a trace id is found from the logs
    defaults.put("management.tracing.exemplars.include", "none");
    defaults.put("spring.kafka.template.observation-enabled", "true");
    defaults.put("spring.kafka.listener.observation-enabled", "true");
    defaults.put("logging.structured.format.file", "ecs");
    String endpoint = environment.getProperty("LIPA_OTLP_ENDPOINT");
    if (endpoint != null && !endpoint.isBlank()) {
      defaults.put(OTLP_ENDPOINT, endpoint.strip());
    }
    environment.getPropertySources().addLast(new MapPropertySource(SOURCE, defaults));
  }
}
