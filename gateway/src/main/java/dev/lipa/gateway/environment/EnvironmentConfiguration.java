package dev.lipa.gateway.environment;

import dev.lipa.gateway.GatewayProperties;
import dev.lipa.gateway.routing.UpstreamInstances;
import dev.lipa.gateway.security.AccessTokens;
import dev.lipa.gateway.web.Envelopes;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The environments this gateway serves, their routes, and the checks that keep each key to its environment. */
@Configuration(proxyBeanMethods = false)
public class EnvironmentConfiguration {

  private static final Logger log = LoggerFactory.getLogger(EnvironmentConfiguration.class);

  @Bean
  ServedEnvironments servedEnvironments(GatewayProperties gateway, UpstreamInstances upstreams) {
    ServedEnvironments served = ServedEnvironments.of(gateway, upstreams);
    log.info("serving the environments {}", served);
    return served;
  }

  /** Takes the place of Spring Cloud Gateway's reader of the routes in application.yml. */
  @Bean
  EnvironmentRoutes environmentRoutes(org.springframework.cloud.gateway.config.GatewayProperties declared,
      ServedEnvironments served, UpstreamInstances upstreams) {
    return new EnvironmentRoutes(declared, served, upstreams);
  }

  @Bean
  RequestEnvironmentRoutePredicateFactory requestEnvironmentRoutePredicateFactory(AccessTokens tokens,
      ServedEnvironments served) {
    return new RequestEnvironmentRoutePredicateFactory(tokens, served);
  }

  @Bean
  WrongEnvironmentFilter wrongEnvironmentFilter(Envelopes envelopes, ObjectProvider<MeterRegistry> meters) {
    return new WrongEnvironmentFilter(envelopes, meters.getIfAvailable(SimpleMeterRegistry::new));
  }

  @Bean
  UnservedEnvironmentFilter unservedEnvironmentFilter(Envelopes envelopes) {
    return new UnservedEnvironmentFilter(envelopes);
  }
}
