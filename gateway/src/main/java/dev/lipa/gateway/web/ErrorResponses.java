package dev.lipa.gateway.web;

import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.rules.BodyTooLargeException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.netty.channel.ChannelException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Turns every failure of a request into an envelope: the caller never sees a framework error page or an exception's
 * text. A failure while proxying (refused connection, timeout, open circuit breaker) names the service as
 * temporarily unavailable.
 */
@Component
public class ErrorResponses {

  /** Set when a streamed body passed the size limit, whatever the proxy wraps the error in. */
  public static final String BODY_TOO_LARGE = ErrorResponses.class.getName() + ".bodyTooLarge";

  private static final Logger log = LoggerFactory.getLogger(ErrorResponses.class);

  private final Envelopes envelopes;

  public ErrorResponses(Envelopes envelopes) {
    this.envelopes = envelopes;
  }

  public Mono<Void> render(ServerWebExchange exchange, Throwable error) {
    if (exchange.getResponse().isCommitted()) {
      // the upstream's status and headers are already on their way: all that is left is to drop the connection
      RequestLog.log(exchange, log, l -> l.warn("{} {} failed after the response started: {}",
          exchange.getRequest().getMethod(), exchange.getRequest().getPath(), describe(error)));
      return Mono.error(error);
    }
    exchange.getResponse().getHeaders().remove("WWW-Authenticate");
    if (exchange.getAttribute(BODY_TOO_LARGE) != null || causedBy(error, BodyTooLargeException.class)) {
      return envelopes.payloadTooLarge(exchange);
    }
    if (error instanceof ResponseStatusException status && status.getStatusCode().is4xxClientError()) {
      HttpStatus code = HttpStatus.resolve(status.getStatusCode().value());
      if (code == HttpStatus.NOT_FOUND) {
        return envelopes.notFound(exchange);
      }
      if (code == HttpStatus.UNSUPPORTED_MEDIA_TYPE) {
        return envelopes.unsupportedMediaType(exchange);
      }
      if (code == HttpStatus.CONTENT_TOO_LARGE) {
        return envelopes.payloadTooLarge(exchange);
      }
      return envelopes.status(exchange, code == null ? HttpStatus.BAD_REQUEST : code);
    }
    Route route = RoutePolicy.route(exchange);
    if (route != null && isUpstreamFailure(error)) {
      String service = RoutePolicy.service(route);
      RequestLog.log(exchange, log, l -> l.warn("{} unavailable for {} {}: {}", service,
          exchange.getRequest().getMethod(), exchange.getRequest().getPath(), describe(error)));
      return envelopes.serviceUnavailable(exchange, service);
    }
    RequestLog.log(exchange, log, l -> l.error("unexpected failure on {} {}",
        exchange.getRequest().getMethod(), exchange.getRequest().getPath(), error));
    return envelopes.internalError(exchange);
  }

  /** Failures of the call to the upstream: refused or reset connections, timeouts, an open circuit breaker. */
  private static boolean isUpstreamFailure(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof IOException || t instanceof TimeoutException || t instanceof ChannelException
          || t instanceof CallNotPermittedException
          // what the gateway's circuit breaker filter raises for an open breaker or its own timeout
          || t instanceof org.springframework.cloud.gateway.support.ServiceUnavailableException
          || t instanceof org.springframework.cloud.gateway.support.TimeoutException
          || (t instanceof ResponseStatusException status && status.getStatusCode().is5xxServerError())) {
        return true;
      }
    }
    return false;
  }

  private static boolean causedBy(Throwable error, Class<? extends Throwable> type) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static String describe(Throwable error) {
    return error.getClass().getSimpleName() + ": " + error.getMessage();
  }
}
