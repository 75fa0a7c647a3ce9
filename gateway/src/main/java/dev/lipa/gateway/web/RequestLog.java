package dev.lipa.gateway.web;

import dev.lipa.gateway.tracing.TraceIdWebFilter;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.MDC;
import org.springframework.web.server.ServerWebExchange;

/**
 * Writes a log line with the request's correlation id in the MDC. A reactive request hops threads, so the id is
 * put in place around each line instead of living in a thread-local for the whole request.
 */
public final class RequestLog {

  public static final String MDC_KEY = "correlationId";

  private RequestLog() {
  }

  /** The MDC key of the request's trace id (the one returned in {@code X-Trace-Id}). */
  public static final String TRACE_ID_KEY = "traceId";

  public static void log(ServerWebExchange exchange, Logger logger, Consumer<Logger> line) {
    String id = CorrelationIds.of(exchange);
    String traceId = TraceIdWebFilter.traceId(exchange);
    if (id == null && traceId == null) {
      line.accept(logger);
      return;
    }
    put(MDC_KEY, id);
    put(TRACE_ID_KEY, traceId);
    try {
      line.accept(logger);
    } finally {
      MDC.remove(MDC_KEY);
      MDC.remove(TRACE_ID_KEY);
    }
  }

  private static void put(String key, String value) {
    if (value != null) {
      MDC.put(key, value);
    }
  }
}
