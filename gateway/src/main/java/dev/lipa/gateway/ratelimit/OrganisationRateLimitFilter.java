package dev.lipa.gateway.ratelimit;

import dev.lipa.common.ratelimit.RateLimitExceededException;
import dev.lipa.common.security.VerifiedToken;
import dev.lipa.gateway.GatewayProperties;
import dev.lipa.gateway.environment.EnvironmentRoutes;
import dev.lipa.gateway.metrics.RouteTimers;
import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.security.BearerTokenGatewayFilter;
import dev.lipa.gateway.web.Envelopes;
import io.github.bucket4j.ConsumptionProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
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
 * token check has just verified, which it leaves on the exchange ({@link BearerTokenGatewayFilter#VERIFIED_TOKEN}).
 */
@Component
public class OrganisationRateLimitFilter implements GlobalFilter, Ordered {

  /** Right after the token check, before the body rules: every authenticated request counts. */
  public static final int ORDER = BearerTokenGatewayFilter.ORDER + 50;

  /** Requests refused with 429 by an organisation's limit, by route (counter). */
  public static final String REFUSALS = "lipa.gateway.rate.limit.refusals";

  private final OrganisationRateLimits limits;
  private final Envelopes envelopes;
  private final MeterRegistry meters;

  @Autowired
  public OrganisationRateLimitFilter(OrganisationLimitProperties properties, GatewayProperties gateway,
      Envelopes envelopes, ObjectProvider<MeterRegistry> meters,
      ObjectProvider<EnvironmentRoutes> routes) {
    this(new OrganisationRateLimits(properties, gateway.replicas()), envelopes,
        meters.getIfAvailable(SimpleMeterRegistry::new));
    // every route that counts requests (the live ones too) has its series from the start, at 0: an alert on a rate
    // finds it
    routes.ifAvailable(served -> served.routes().stream()
        .filter(route -> RoutePolicy.tokenRequired(route.getMetadata())
            && !"false".equals(String.valueOf(route.getMetadata().get(RoutePolicy.SERVED))))
        .forEach(route -> refusals(route.getId())));
  }

  OrganisationRateLimitFilter(OrganisationRateLimits limits, Envelopes envelopes, MeterRegistry meters) {
    this.limits = limits;
    this.envelopes = envelopes;
    this.meters = meters;
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
    VerifiedToken caller = exchange.getAttribute(BearerTokenGatewayFilter.VERIFIED_TOKEN);
    if (caller == null) {
      return chain.filter(exchange); // the token check let no such request through
    }
    ConsumptionProbe probe = limits.tryConsume(caller.organisation(), caller.requestsPerSecond());
    if (probe.isConsumed()) {
      return chain.filter(exchange);
    }
    refusals(RouteTimers.routeTag(RoutePolicy.route(exchange))).increment();
    long seconds = RateLimitExceededException.retryAfterSeconds(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
    return envelopes.status(exchange, HttpStatus.TOO_MANY_REQUESTS);
  }

  private Counter refusals(String route) {
    return Counter.builder(REFUSALS).description("Requests refused with 429 by an organisation's request limit")
        .tag("route", route).register(meters);
  }
}
