package dev.lipa.gateway.security;

import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.OperatorTokens;
import dev.lipa.common.security.RevocationFeed;
import dev.lipa.common.security.SecurityProperties;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.servlet.OperatorSettings;
import java.time.Clock;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Token verification for the gateway. common's servlet auto-configuration does not apply to WebFlux, so the
 * verifier, the revocation feed it follows and the operator credentials are built here from the same
 * {@code lipa.security.*} and {@code lipa.operator.*} properties.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({SecurityProperties.class, OperatorSettings.class})
class SecurityConfiguration {

  private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  JwksKeys jwksKeys(SecurityProperties properties, Clock clock) {
    Objects.requireNonNull(properties.jwksUri(), "lipa.security.jwks-uri is required");
    return new JwksKeys(properties.jwksUri(), clock, properties.jwksMinRefetchInterval());
  }

  /** auth-service's revocation feed (read with the internal token; the gateway itself never routes /internal). */
  @Bean(destroyMethod = "close")
  RevocationFeed revocationFeed(SecurityProperties properties, @Value("${lipa.internal.token:}") String internalToken,
      Clock clock) {
    return properties.startRevocationFeed(internalToken, clock);
  }

  @Bean
  TokenVerifier tokenVerifier(JwksKeys keys, SecurityProperties properties, Clock clock, RevocationFeed revocations) {
    return new TokenVerifier(keys, properties.issuer(), properties.audience(), clock,
        properties.verifiedTokenCacheTtl(), revocations);
  }

  @Bean
  AccessTokens accessTokens(TokenVerifier verifier) {
    return new AccessTokens(verifier);
  }

  /** The operator credentials by name, checked on {@code /admin/**} before routing. */
  @Bean
  OperatorTokens operatorTokens(OperatorSettings settings) {
    OperatorTokens tokens = settings.operatorTokens();
    if (tokens.configured()) {
      log.info("operator tokens configured for {}", tokens.names());
    }
    return tokens;
  }
}
