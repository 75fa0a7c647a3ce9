package dev.lipa.gateway.tracing;

import java.util.List;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * The proxied request's trace headers: the client's {@code traceparent}, {@code tracestate} and {@code baggage} are
 * dropped (the edge trusts none of them, see {@link EdgeTracing}) and the gateway's own {@code traceparent} for the
 * request is sent instead, so the service's spans continue the gateway's trace. Spring Cloud Gateway's own
 * observation of the proxied call, which would do the injection, stays off (it would time every request twice).
 */
@Component
public class TraceHeadersFilter implements HttpHeadersFilter {

  static final List<String> CLIENT_TRACE_HEADERS = List.of("traceparent", "tracestate", "baggage");

  @Override
  public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
    String traceparent = exchange.getAttribute(TraceIdWebFilter.TRACEPARENT);
    boolean carriesTrace = CLIENT_TRACE_HEADERS.stream().anyMatch(input::containsHeader);
    if (!carriesTrace && traceparent == null) {
      return input;
    }
    HttpHeaders filtered = new HttpHeaders();
    filtered.putAll(input);
    CLIENT_TRACE_HEADERS.forEach(filtered::remove);
    if (traceparent != null) {
      filtered.set("traceparent", traceparent);
    }
    return filtered;
  }

  @Override
  public boolean supports(Type type) {
    return type == Type.REQUEST;
  }
}
