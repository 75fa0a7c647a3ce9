package dev.lipa.gateway.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Returns the request's trace id to the caller in {@value #HEADER} (32 lowercase hex digits, sampled or not: what a
 * merchant quotes to support), and keeps the request's {@code traceparent} on the exchange for the proxied call
 * ({@link TraceHeadersFilter}) and the access log. The trace is the one the gateway's server observation started for
 * this request ({@link EdgeTracing}: never one a client sent).
 */
@Component
public class TraceIdWebFilter implements WebFilter, Ordered {

  /** The response header with the request's trace id. */
  public static final String HEADER = "X-Trace-Id";
  static final String TRACEPARENT = TraceIdWebFilter.class.getName() + ".traceparent";
  static final String TRACE_ID = TraceIdWebFilter.class.getName() + ".traceId";

  private final Propagator propagator;

  public TraceIdWebFilter(Propagator propagator) {
    this.propagator = propagator;
  }

  /** Right after the request lifecycle filter, so that every answer (the gateway's own errors too) has the header. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 1;
  }

  /** The trace id of this exchange, or null outside a trace. */
  public static String traceId(ServerWebExchange exchange) {
    return exchange.getAttribute(TRACE_ID);
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    Span span = ServerRequestObservationContext.findCurrent(exchange.getAttributes())
        .map(context -> context.<TracingObservationHandler.TracingContext>get(
            TracingObservationHandler.TracingContext.class))
        .map(TracingObservationHandler.TracingContext::getSpan)
        .orElse(null);
    if (span != null) {
      Map<String, String> carrier = new HashMap<>(2);
      propagator.inject(span.context(), carrier, Map::put);
      String traceId = span.context().traceId();
      exchange.getAttributes().put(TRACE_ID, traceId);
      if (carrier.get("traceparent") != null) {
        exchange.getAttributes().put(TRACEPARENT, carrier.get("traceparent"));
      }
      ServerHttpResponse response = exchange.getResponse();
      // just before the status line: an upstream's own header of that name is replaced, not doubled
      response.beforeCommit(() -> {
        response.getHeaders().set(HEADER, traceId);
        return Mono.empty();
      });
    }
    return chain.filter(exchange);
  }
}
