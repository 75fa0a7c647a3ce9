package dev.lipa.gateway.environment;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.paths.PathRules;
import dev.lipa.common.security.VerifiedToken;
import dev.lipa.gateway.security.AccessTokens;
import dev.lipa.gateway.security.BearerTokenGatewayFilter;
import java.util.List;
import java.util.function.Predicate;
import org.springframework.cloud.gateway.handler.AsyncPredicate;
import org.springframework.cloud.gateway.handler.predicate.AbstractRoutePredicateFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code RequestEnvironment=<sandbox|live>}: the request is of that environment. An operational path says which
 * itself ({@link Environment#ofPath}); a path without one ({@code /api/v1/tz/...}, {@code /api/v1/callbacks/...}) is of
 * its token's environment. A request without a valid token goes to {@link ServedEnvironments#withoutToken()}, whose
 * route then refuses it (401) like any other: routing never answers for the token check.
 *
 * <p>The token is verified here, before routing, only for a path without an environment, and only once per request;
 * the verifier remembers it, so the token check on the route finds it at once.
 */
public class RequestEnvironmentRoutePredicateFactory
    extends AbstractRoutePredicateFactory<RequestEnvironmentRoutePredicateFactory.Config> {

  static final String NAME = "RequestEnvironment";
  static final String ENVIRONMENT = "environment";
  private static final String RESOLVED = RequestEnvironmentRoutePredicateFactory.class.getName() + ".environment";

  private final AccessTokens tokens;
  private final ServedEnvironments served;

  public RequestEnvironmentRoutePredicateFactory(AccessTokens tokens, ServedEnvironments served) {
    super(Config.class);
    this.tokens = tokens;
    this.served = served;
  }

  /** {@code environment}: {@code sandbox} or {@code live}. */
  public static class Config {

    private String environment;

    public String getEnvironment() {
      return environment;
    }

    public void setEnvironment(String environment) {
      this.environment = environment;
    }
  }

  @Override
  public List<String> shortcutFieldOrder() {
    return List.of(ENVIRONMENT);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AsyncPredicate<ServerWebExchange> applyAsync(Config config) {
    Environment wanted = Environment.of(config.getEnvironment());
    return exchange -> environment(exchange).map(wanted::equals);
  }

  /** Only for callers that cannot wait: a token not verified yet counts as no token. */
  @Override
  public Predicate<ServerWebExchange> apply(Config config) {
    Environment wanted = Environment.of(config.getEnvironment());
    return exchange -> {
      Environment ofPath = ofPath(exchange);
      if (ofPath != null) {
        return ofPath == wanted;
      }
      String token = token(exchange);
      VerifiedToken admitted = token == null ? null : tokens.admitted(token);
      return (admitted == null ? served.withoutToken() : admitted.environment()) == wanted;
    };
  }

  /** The request's environment, worked out once per request (each route of a path family asks). */
  private Mono<Environment> environment(ServerWebExchange exchange) {
    Environment ofPath = ofPath(exchange);
    if (ofPath != null) {
      return Mono.just(ofPath);
    }
    Environment known = exchange.getAttribute(RESOLVED);
    if (known != null) {
      return Mono.just(known);
    }
    String token = token(exchange);
    VerifiedToken admitted = token == null ? null : tokens.admitted(token);
    Mono<Environment> resolved = token == null ? Mono.just(served.withoutToken())
        : admitted != null ? Mono.just(admitted.environment())
        // a first sight of the token: the signature check may block on a key fetch, so not on the event loop
        : Mono.fromCallable(() -> tokens.verify(token).environment())
            .subscribeOn(Schedulers.boundedElastic())
            .onErrorResume(e -> Mono.just(served.withoutToken()));
    return resolved.doOnNext(environment -> exchange.getAttributes().put(RESOLVED, environment));
  }

  private static Environment ofPath(ServerWebExchange exchange) {
    return Environment.ofPath(PathRules.routed(exchange.getRequest().getPath().value()));
  }

  private static String token(ServerWebExchange exchange) {
    return BearerTokenGatewayFilter.bearerToken(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
  }
}
