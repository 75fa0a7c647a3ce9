package dev.lipa.gateway.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.util.List;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * The gateway is where a trace starts: it does <b>not</b> adopt a {@code traceparent} (nor {@code tracestate} or
 * {@code baggage}) sent from the internet. A client could otherwise choose its own trace ids (colliding with or
 * stitching itself into other requests' traces) or set the sampled flag on every request and have every span of the
 * platform recorded and exported. Each request starts a new trace, sampled at the platform's rate; the id is returned
 * in {@link TraceIdWebFilter#HEADER} and sent upstream as {@code traceparent}, which the services (internal hops) do
 * trust.
 *
 * <p>Spring Boot's receiver handler would extract the parent from the request headers; this one is the same handler
 * over a propagator that never extracts (it injects as usual).
 */
@Configuration(proxyBeanMethods = false)
class EdgeTracing {

  @Bean
  @Order(MicrometerTracingAutoConfiguration.RECEIVER_TRACING_OBSERVATION_HANDLER_ORDER)
  PropagatingReceiverTracingObservationHandler<?> propagatingReceiverTracingObservationHandler(Tracer tracer,
      Propagator propagator) {
    return new PropagatingReceiverTracingObservationHandler<>(tracer, new NoExtraction(tracer, propagator));
  }

  /** A propagator that injects as the platform's does and extracts nothing: every incoming request is a new trace. */
  static final class NoExtraction implements Propagator {

    private final Tracer tracer;
    private final Propagator delegate;

    NoExtraction(Tracer tracer, Propagator delegate) {
      this.tracer = tracer;
      this.delegate = delegate;
    }

    @Override
    public List<String> fields() {
      return delegate.fields();
    }

    @Override
    public <C> void inject(io.micrometer.tracing.TraceContext context, C carrier, Setter<C> setter) {
      delegate.inject(context, carrier, setter);
    }

    @Override
    public <C> Span.Builder extract(C carrier, Getter<C> getter) {
      // a root span: no parent, whatever the request carries
      return tracer.spanBuilder().setNoParent();
    }
  }
}
