package dev.lipa.common.tracing;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The platform's {@link TraceContexts} on the service's tracer (Spring Boot's Micrometer Tracing over OpenTelemetry);
 * without a tracer the outbox and the dispatcher use {@link TraceContexts#NONE}.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
    "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration"})
@ConditionalOnClass(name = "io.micrometer.tracing.Tracer")
@ConditionalOnBean({Tracer.class, Propagator.class})
public class TracingAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  TraceContexts traceContexts(Tracer tracer, Propagator propagator) {
    return new MicrometerTraceContexts(tracer, propagator);
  }
}
