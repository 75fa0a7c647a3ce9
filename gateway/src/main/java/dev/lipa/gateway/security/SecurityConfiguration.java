package dev.lipa.gateway.security;

import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.SecurityProperties;
import dev.lipa.common.security.TokenVerifier;
import java.time.Clock;
import java.util.Objects;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Token verification for the gateway. common's servlet auto-configuration does not apply to WebFlux, so the
 * verifier is built here from the same {@code lipa.security.*} properties.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecurityProperties.class)
class SecurityConfiguration {

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  JwksKeys jwksKeys(SecurityProperties properties, Clock clock) {
    Objects.requireNonNull(properties.jwksUri(), "lipa.security.jwks-uri is required");
    return new JwksKeys(properties.jwksUri(), clock, properties.jwksMinRefetchInterval());
  }

  @Bean
  TokenVerifier tokenVerifier(JwksKeys keys, SecurityProperties properties, Clock clock) {
    return new TokenVerifier(keys, properties.issuer(), properties.audience(), clock,
        properties.verifiedTokenCacheTtl());
  }

  @Bean
  AccessTokens accessTokens(TokenVerifier verifier) {
    return new AccessTokens(verifier);
  }
}
