package dev.lipa.gateway.rules;

import dev.lipa.common.paths.PathRules;
import dev.lipa.gateway.web.Envelopes;
import dev.lipa.gateway.web.RequestLog;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses odd spellings of a path ({@link PathRules#oddity}: percent-encoding, {@code ;} parameters, backslashes,
 * {@code //}, {@code .} and {@code ..}) with 400 before routing. The routes match the decoded path, so without this
 * rule {@code /%61dmin} would be routed as {@code /admin} while a check on the raw path saw something else; after it,
 * the path every later step reads is the path that is routed.
 */
@Component
public class PathRulesWebFilter implements WebFilter, Ordered {

  /** Right after the request lifecycle (correlation id, access log), before anything reads the path. */
  public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 1;
  private static final Logger log = LoggerFactory.getLogger(PathRulesWebFilter.class);

  private final Envelopes envelopes;

  public PathRulesWebFilter(Envelopes envelopes) {
    this.envelopes = envelopes;
  }

  @Override
  public int getOrder() {
    return ORDER;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    Optional<String> oddity = PathRules.oddity(exchange.getRequest().getPath().value());
    if (oddity.isPresent()) {
      RequestLog.log(exchange, log, l -> l.warn("refused {} with an odd path spelling: {}",
          exchange.getRequest().getMethod(), oddity.get()));
      return envelopes.malformedPath(exchange, oddity.get());
    }
    return chain.filter(exchange);
  }
}
