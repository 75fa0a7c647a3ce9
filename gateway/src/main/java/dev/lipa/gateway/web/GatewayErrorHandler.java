package dev.lipa.gateway.web;

import org.springframework.boot.webflux.error.ErrorWebExceptionHandler;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Replaces Spring Boot's default error page for anything that escapes {@link RequestLifecycleFilter}, so even
 * those failures get an envelope.
 */
@Component
@Order(-2)
public class GatewayErrorHandler implements ErrorWebExceptionHandler {

  private final ErrorResponses errors;

  public GatewayErrorHandler(ErrorResponses errors) {
    this.errors = errors;
  }

  @Override
  public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
    return errors.render(exchange, error);
  }
}
