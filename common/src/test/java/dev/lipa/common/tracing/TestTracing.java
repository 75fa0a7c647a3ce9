package dev.lipa.common.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;

/**
 * A real tracer for tests, built as Spring Boot builds the services' one: Micrometer Tracing's OpenTelemetry bridge
 * over the SDK, W3C propagation, every trace sampled unless a test asks for none.
 */
public final class TestTracing {

  private final Tracer tracer;
  private final Propagator propagator;

  private TestTracing(Sampler sampler) {
    io.opentelemetry.api.trace.Tracer otel = SdkTracerProvider.builder().setSampler(sampler).build().get("tests");
    OtelCurrentTraceContext current = new OtelCurrentTraceContext();
    this.tracer = new OtelTracer(otel, current, event -> {
    }, new OtelBaggageManager(current, List.of(), List.of()));
    this.propagator = new OtelPropagator(ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otel);
  }

  /** Every trace sampled, as in the tests' setting. */
  public static TestTracing sampled() {
    return new TestTracing(Sampler.alwaysOn());
  }

  /** No trace sampled: the context must travel all the same. */
  public static TestTracing unsampled() {
    return new TestTracing(Sampler.alwaysOff());
  }

  public Tracer tracer() {
    return tracer;
  }

  public TraceContexts contexts() {
    return new MicrometerTraceContexts(tracer, propagator);
  }

  /** Runs {@code work} inside a new trace and returns that trace's id. */
  public String inNewTrace(Runnable work) {
    Span span = tracer.nextSpan().name("test").start();
    try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
      work.run();
    } finally {
      span.end();
    }
    return span.context().traceId();
  }

  /** The trace id of a {@code traceparent}. */
  public static String traceId(String traceparent) {
    return traceparent.split("-")[1];
  }

  /** Whether a {@code traceparent}'s sampled flag is set (its other flags, such as "random trace id", aside). */
  public static boolean sampled(String traceparent) {
    return (Integer.parseInt(traceparent.split("-")[3], 16) & 1) == 1;
  }

  /** The span id of a {@code traceparent}. */
  public static String spanId(String traceparent) {
    return traceparent.split("-")[2];
  }
}
