package dev.lipa.gateway.security;

import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.KeysUnavailableException;
import dev.lipa.common.security.VerifiedToken;
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
  /** The exchange attribute holding the {@link VerifiedToken} this filter admitted the request with. */
  public static final String VERIFIED_TOKEN = BearerTokenGatewayFilter.class.getName() + ".verifiedToken";

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
    VerifiedToken cached = tokens.admitted(token);
    if (cached != null) {
      return admit(exchange, chain, cached);
    }
    // a first sight of this token: the signature check and a possible JWKS fetch block, so not on the event loop
    return Mono.fromCallable(() -> verify(token))
        .subscribeOn(Schedulers.boundedElastic())
        .flatMap(outcome -> outcome.token() != null ? admit(exchange, chain, outcome.token())
            : reject(exchange, outcome));
  }

  /** Lets the request on, leaving the verified token for the filters after this one (the organisation's limit). */
  private static Mono<Void> admit(ServerWebExchange exchange, GatewayFilterChain chain, VerifiedToken token) {
    exchange.getAttributes().put(VERIFIED_TOKEN, token);
    return chain.filter(exchange);
  }

  private Outcome verify(String token) {
    try {
      return new Outcome(tokens.verify(token), false, null);
    } catch (InvalidTokenException e) {
      return new Outcome(null, false, e.getMessage());
    } catch (KeysUnavailableException e) {
      return new Outcome(null, true, e.getMessage());
    }
  }

  private Mono<Void> reject(ServerWebExchange exchange, Outcome failure) {
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
  public static String bearerToken(String header) {
    if (header == null || header.length() <= BEARER.length()
        || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return null;
    }
    String token = header.substring(BEARER.length()).strip();
    return token.isEmpty() ? null : token;
  }

  /** A verified token, or why there is none. */
  private record Outcome(VerifiedToken token, boolean keysUnavailable, String reason) {
  }
}
