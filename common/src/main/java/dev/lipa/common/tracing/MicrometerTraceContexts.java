package dev.lipa.common.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;

/** {@link TraceContexts} on the service's Micrometer {@link Tracer} and its W3C {@link Propagator}. */
public final class MicrometerTraceContexts implements TraceContexts {


  private static final String TRACEPARENT_KEY = TraceContexts.TRACEPARENT;

  private final Tracer tracer;
  private final Propagator propagator;

  public MicrometerTraceContexts(Tracer tracer, Propagator propagator) {
    this.tracer = tracer;
    this.propagator = propagator;
  }

  @Override
  public String current() {
    Span span = tracer.currentSpan();
    return span == null ? null : traceparent(span);
  }

  @Override
  public Hop startHop(String parent, String name, String destination) {
    Span.Builder builder = TraceContexts.wellFormed(parent) != null
        ? propagator.extract(Map.of(TRACEPARENT_KEY, parent), (carrier, key) -> carrier.get(key))
        : tracer.spanBuilder();
    Span span = builder.name(name).kind(Span.Kind.PRODUCER).remoteServiceName(destination)
        .tag("lipa.destination", destination).start();
    String own = traceparent(span);
    return new Hop() {
      @Override
      public String traceparent() {
        return own;
      }

      @Override
      public void end(Throwable failure) {
        if (failure != null) {
          span.error(failure);
        }
        span.end();
      }
    };
  }

  @Override
  public Runnable carry(Runnable task) {
    Span span = tracer.currentSpan();
    if (span == null) {
      return task;
    }
    return () -> {
      try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
        task.run();
      }
    };
  }

  @Override
  public void consume(String parent, String name, Runnable task) {
    if (TraceContexts.wellFormed(parent) == null) {
      task.run();
      return;
    }
    Span span = propagator.extract(Map.of(TRACEPARENT_KEY, parent), (carrier, key) -> carrier.get(key))
        .name(name).kind(Span.Kind.CONSUMER).start();
    try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
      task.run();
    } catch (RuntimeException e) {
      span.error(e);
      throw e;
    } finally {
      span.end();
    }
  }

  private String traceparent(Span span) {
    Map<String, String> carrier = new HashMap<>(2);
    propagator.inject(span.context(), carrier, Map::put);
    return carrier.get(TRACEPARENT_KEY);
  }
}
