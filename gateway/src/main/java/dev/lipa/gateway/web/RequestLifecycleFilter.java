package dev.lipa.gateway.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * The outermost step of every request: gives it a correlation id (forwarded upstream and returned to the caller),
 * turns any failure into an envelope, and writes the one access-log line (method, path, status, latency; never the
 * Authorization header or a body).
 */
@Component
public class RequestLifecycleFilter implements WebFilter, Ordered {

  private static final Logger access = LoggerFactory.getLogger("dev.lipa.gateway.access");

  private final ErrorResponses errors;

  public RequestLifecycleFilter(ErrorResponses errors) {
    this.errors = errors;
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    long started = System.nanoTime();
    String incoming = exchange.getRequest().getHeaders().getFirst(CorrelationIds.HEADER);
    String id;
    ServerWebExchange current = exchange;
    if (CorrelationIds.isSafe(incoming)) {
      id = incoming;
    } else {
      id = CorrelationIds.next();
      ServerHttpRequest request = exchange.getRequest().mutate()
          .headers(headers -> headers.set(CorrelationIds.HEADER, id))
          .build();
      current = exchange.mutate().request(request).build();
    }
    current.getAttributes().put(CorrelationIds.ATTRIBUTE, id);
    ServerHttpResponse response = current.getResponse();
    // set just before the status line goes out, so an upstream's own X-Correlation-Id is replaced, not doubled
    response.beforeCommit(() -> {
      response.getHeaders().set(CorrelationIds.HEADER, id);
      return Mono.empty();
    });
    ServerWebExchange proxied = current;
    return chain.filter(proxied)
        .onErrorResume(error -> errors.render(proxied, error))
        .doFinally(signal -> logAccess(proxied, signal, started));
  }

  private static void logAccess(ServerWebExchange exchange, SignalType signal, long started) {
    if (!access.isInfoEnabled()) {
      return;
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    HttpStatusCode status = exchange.getResponse().getStatusCode();
    Object outcome = signal == SignalType.CANCEL ? "cancelled" : status == null ? 200 : status.value();
    RequestLog.log(exchange, access, l -> l.info("{} {} {} {}ms",
        exchange.getRequest().getMethod(), exchange.getRequest().getPath(), outcome, millis));
  }
}
