package dev.lipa.gateway.security;

import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.KeysUnavailableException;
import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.web.Envelopes;
import dev.lipa.gateway.web.RequestLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Admits requests on token routes only with a valid access token; anything else gets the 401 envelope with
 * {@code WWW-Authenticate: Bearer}. The Authorization header is forwarded unchanged: services verify it again.
 */
@Component
public class BearerTokenGatewayFilter implements GlobalFilter, Ordered {

  /** Runs first among the route filters: an unknown path was already refused (404) by the routing itself. */
  public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

  private static final Logger log = LoggerFactory.getLogger(BearerTokenGatewayFilter.class);
  private static final String BEARER = "Bearer ";

  private final AccessTokens tokens;
  private final Envelopes envelopes;

  public BearerTokenGatewayFilter(AccessTokens tokens, Envelopes envelopes) {
    this.tokens = tokens;
    this.envelopes = envelopes;
  }

  @Override
  public int getOrder() {
    return ORDER;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    if (!RoutePolicy.tokenRequired(RoutePolicy.route(exchange))) {
      return chain.filter(exchange);
    }
    String token = bearerToken(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
    if (token == null) {
      return refuse(exchange, "no bearer token");
    }
    if (tokens.isAdmitted(token)) {
      return chain.filter(exchange);
    }
    // a first sight of this token: the signature check and a possible JWKS fetch block, so not on the event loop
    return Mono.fromCallable(() -> verify(token))
        .subscribeOn(Schedulers.boundedElastic())
        .flatMap(failure -> failure == Failure.NONE ? chain.filter(exchange) : reject(exchange, failure));
  }

  private Failure verify(String token) {
    try {
      tokens.verify(token);
      return Failure.NONE;
    } catch (InvalidTokenException e) {
      return new Failure(false, e.getMessage());
    } catch (KeysUnavailableException e) {
      return new Failure(true, e.getMessage());
    }
  }

  private Mono<Void> reject(ServerWebExchange exchange, Failure failure) {
    if (failure.keysUnavailable()) {
      RequestLog.log(exchange, log, l -> l.warn("cannot verify tokens: {}", failure.reason()));
      return envelopes.authenticationUnavailable(exchange);
    }
    return refuse(exchange, failure.reason());
  }

  private Mono<Void> refuse(ServerWebExchange exchange, String reason) {
    RequestLog.log(exchange, log, l -> l.info("refused token on {} {}: {}",
        exchange.getRequest().getMethod(), exchange.getRequest().getPath(), reason));
    return envelopes.unauthorized(exchange);
  }

  /** The token of an {@code Authorization: Bearer <token>} header, or null when there is none. */
  static String bearerToken(String header) {
    if (header == null || header.length() <= BEARER.length()
        || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return null;
    }
    String token = header.substring(BEARER.length()).strip();
    return token.isEmpty() ? null : token;
  }

  private record Failure(boolean keysUnavailable, String reason) {
    static final Failure NONE = new Failure(false, null);
  }
}
