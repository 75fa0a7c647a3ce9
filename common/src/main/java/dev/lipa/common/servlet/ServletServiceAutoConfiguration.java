package dev.lipa.common.servlet;

import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.ids.RecordIds;
import dev.lipa.common.json.JsonAutoConfiguration;
import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.SecurityProperties;
import dev.lipa.common.security.TokenVerifier;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/** What every servlet service gets: the envelope advice, correlation ids and its own token check. */
@AutoConfiguration(after = JsonAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "jakarta.servlet.Filter")
@EnableConfigurationProperties(SecurityProperties.class)
@Import(EnvelopeExceptionHandler.class)
public class ServletServiceAutoConfiguration {

  @Bean
  FilterRegistrationBean<CorrelationIdFilter> correlationIdFilter() {
    FilterRegistrationBean<CorrelationIdFilter> bean = new FilterRegistrationBean<>(new CorrelationIdFilter());
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return bean;
  }

  @Bean
  @ConditionalOnMissingBean
  Clock clock() {
    return Clock.systemUTC();
  }

  /** The SSRF guard for callback URLs merchants give; private targets only where the setting allows them. */
  @Bean
  @ConditionalOnMissingBean
  CallbackUrlGuard callbackUrlGuard(
      @Value("${" + CallbackUrlGuard.ALLOW_PRIVATE_TARGETS + ":false}") boolean allowPrivateTargets) {
    return new CallbackUrlGuard(allowPrivateTargets);
  }

  @Bean
  @ConditionalOnMissingBean
  RecordIds recordIds(Clock clock) {
    return new RecordIds(clock);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty("lipa.security.jwks-uri")
  TokenVerifier tokenVerifier(SecurityProperties properties, Clock clock) {
    JwksKeys keys = new JwksKeys(properties.jwksUri(), clock, properties.jwksMinRefetchInterval());
    return new TokenVerifier(keys, properties.issuer(), properties.audience(), clock,
        properties.verifiedTokenCacheTtl());
  }

  @Bean
  @ConditionalOnProperty("lipa.security.jwks-uri")
  FilterRegistrationBean<BearerTokenFilter> bearerTokenFilter(TokenVerifier verifier, SecurityProperties properties,
      JsonMapper json) {
    FilterRegistrationBean<BearerTokenFilter> bean = new FilterRegistrationBean<>(
        new BearerTokenFilter(verifier, properties.protectedPaths(), properties.publicPaths(), json));
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return bean;
  }
}
