package dev.lipa.gateway.ratelimit;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.common.ratelimit.RateLimitExceededException;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.security.VerifiedToken;
import dev.lipa.gateway.GatewayProperties;
import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.security.BearerTokenGatewayFilter;
import dev.lipa.gateway.web.Envelopes;
import io.github.bucket4j.ConsumptionProbe;
import java.text.ParseException;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Requests per organisation per second on the routes that need a token: right after the token check, the caller's
 * organisation (the token's subject) takes a token from its bucket here ({@link OrganisationRateLimits}); an empty
 * bucket is {@code 429} with {@code Retry-After} in whole seconds, in the envelope or, on checkout-session paths, the
 * checkout error body. Nothing is looked up per request: the organisation's own limit is a claim of the token the
 * token check has just verified and cached.
 */
@Component
public class OrganisationRateLimitFilter implements GlobalFilter, Ordered {

  /** Right after the token check, before the body rules: every authenticated request counts. */
  public static final int ORDER = BearerTokenGatewayFilter.ORDER + 50;
  private static final String BEARER = "Bearer ";

  private final OrganisationRateLimits limits;
  private final TokenVerifier verifier;
  private final Envelopes envelopes;

  @Autowired
  public OrganisationRateLimitFilter(OrganisationLimitProperties properties, GatewayProperties gateway, TokenVerifier verifier,
      Envelopes envelopes) {
    this(new OrganisationRateLimits(properties, gateway.replicas()), verifier, envelopes);
  }

  OrganisationRateLimitFilter(OrganisationRateLimits limits, TokenVerifier verifier, Envelopes envelopes) {
    this.limits = limits;
    this.verifier = verifier;
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
    Caller caller = caller(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
    if (caller == null) {
      return chain.filter(exchange); // the token check let no such request through
    }
    ConsumptionProbe probe = limits.tryConsume(caller.organisationId(), caller.requestsPerSecond());
    if (probe.isConsumed()) {
      return chain.filter(exchange);
    }
    long seconds = RateLimitExceededException.retryAfterSeconds(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
    return envelopes.status(exchange, HttpStatus.TOO_MANY_REQUESTS);
  }

  /**
   * The organisation and its limit from the token the token check verified a moment ago: from the verifier's cache,
   * or, should the cache have been cleared in between, from the token's claims (already verified in this exchange).
   */
  private Caller caller(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return null;
    }
    String token = authorization.substring(BEARER.length()).strip();
    try {
      VerifiedToken verified = verifier.cached(token, TokenClaims.ACCESS);
      if (verified != null) {
        return new Caller(verified.organisationId(), verified.requestsPerSecond());
      }
    } catch (InvalidTokenException e) {
      return null;
    }
    try {
      JWTClaimsSet claims = SignedJWT.parse(token).getJWTClaimsSet();
      Object rps = claims.getClaim(TokenClaims.REQUESTS_PER_SECOND);
      return claims.getSubject() == null ? null : new Caller(claims.getSubject(),
          rps instanceof Number n && n.longValue() > 0 && n.longValue() <= Integer.MAX_VALUE ? n.intValue() : null);
    } catch (ParseException | RuntimeException e) {
      return null;
    }
  }

  private record Caller(String organisationId, Integer requestsPerSecond) {
  }
}
