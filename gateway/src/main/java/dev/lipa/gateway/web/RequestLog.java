package dev.lipa.gateway.web;

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

  public static void log(ServerWebExchange exchange, Logger logger, Consumer<Logger> line) {
    String id = CorrelationIds.of(exchange);
    if (id == null) {
      line.accept(logger);
      return;
    }
    MDC.put(MDC_KEY, id);
    try {
      line.accept(logger);
    } finally {
      MDC.remove(MDC_KEY);
    }
  }
}
