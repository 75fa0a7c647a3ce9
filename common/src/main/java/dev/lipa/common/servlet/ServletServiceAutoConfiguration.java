package dev.lipa.common.servlet;

import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.callbacks.PortSet;
import dev.lipa.common.environment.EnvironmentAutoConfiguration;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.ids.RecordIds;
import dev.lipa.common.json.JsonAutoConfiguration;
import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.OperatorTokens;
import dev.lipa.common.security.RevocationFeed;
import dev.lipa.common.security.SecurityProperties;
import dev.lipa.common.security.TokenVerifier;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
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

/**
 * What every servlet service gets: the envelope advice, correlation ids, the path rules, its own checks of the bearer,
 * operator and internal credentials, and a listener on loopback unless told otherwise.
 *
 * <p>Filter order: correlation id, then the operator audit where the service has a database (so refused and oddly
 * spelt operator calls are recorded too), then the path rules (an odd spelling is refused before any credential is
 * looked at), then the operator and internal guards, then the bearer token.
 */
@AutoConfiguration(after = {JsonAutoConfiguration.class, EnvironmentAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "jakarta.servlet.Filter")
@EnableConfigurationProperties({SecurityProperties.class, OperatorSettings.class})
@Import({EnvelopeExceptionHandler.class, ServiceListeners.class})
public class ServletServiceAutoConfiguration {

  private static final Logger log = LoggerFactory.getLogger(ServletServiceAutoConfiguration.class);
  /** Where the operator audit's filter runs (dev.lipa.common.audit): right after the correlation id. */
  public static final int AUDIT_ORDER = Ordered.HIGHEST_PRECEDENCE + 1;
  private static final int RECOMMENDED_TOKEN_LENGTH = 32;

  @Bean
  FilterRegistrationBean<CorrelationIdFilter> correlationIdFilter() {
    FilterRegistrationBean<CorrelationIdFilter> bean = new FilterRegistrationBean<>(new CorrelationIdFilter());
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return bean;
  }

  @Bean
  FilterRegistrationBean<PathRulesFilter> pathRulesFilter(JsonMapper json) {
    FilterRegistrationBean<PathRulesFilter> bean = new FilterRegistrationBean<>(new PathRulesFilter(json));
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
    return bean;
  }

  /** The operator credentials by name ({@code lipa.operator.token} and {@code lipa.operator.tokens.<name>}). */
  @Bean
  @ConditionalOnMissingBean
  OperatorTokens operatorTokens(OperatorSettings settings) {
    OperatorTokens tokens = settings.operatorTokens();
    if (!tokens.configured()) {
      log.info("neither LIPA_OPERATOR_TOKEN nor any LIPA_OPERATOR_TOKENS_<NAME> is set: /admin/** answers 503");
    } else {
      log.info("operator tokens configured for {}", tokens.names());
      tokens.shorterThan(RECOMMENDED_TOKEN_LENGTH).forEach(name -> log.warn(
          "the operator token of {} is shorter than {} characters; use a long random value", name,
          RECOMMENDED_TOKEN_LENGTH));
    }
    return tokens;
  }

  @Bean
  FilterRegistrationBean<OperatorTokenFilter> operatorTokenFilter(OperatorTokens tokens, JsonMapper json,
      ObjectProvider<ServiceListeners.OperatorListener> listener) {
    ServiceListeners.OperatorListener operator = listener.getIfAvailable();
    FilterRegistrationBean<OperatorTokenFilter> bean = new FilterRegistrationBean<>(new OperatorTokenFilter(
        tokens, json, operator == null ? () -> -1 : operator::port));
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
    return bean;
  }

  @Bean
  FilterRegistrationBean<InternalTokenFilter> internalTokenFilter(
      @Value("${lipa.internal.token:}") String internalToken, JsonMapper json) {
    FilterRegistrationBean<InternalTokenFilter> bean = new FilterRegistrationBean<>(
        new InternalTokenFilter(internalToken, json));
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 6);
    return bean;
  }

  @Bean
  @ConditionalOnMissingBean
  Clock clock() {
    return Clock.systemUTC();
  }

  /**
   * The SSRF guard for callback URLs merchants give; private targets only where the setting allows them, and never in
   * live, which also accepts only https URLs.
   */
  @Bean
  @ConditionalOnMissingBean
  CallbackUrlGuard callbackUrlGuard(
      @Value("${" + CallbackUrlGuard.ALLOW_PRIVATE_TARGETS + ":false}") boolean allowPrivateTargets,
      @Value("${" + CallbackUrlGuard.PLATFORM_PORTS + ":" + CallbackUrlGuard.DEFAULT_PLATFORM_PORTS + "}")
      String platformPorts, StackEnvironment stack) {
    if (stack.isLive() && allowPrivateTargets) {
      log.warn("{}=true is ignored in live: callbacks reach public https addresses only",
          CallbackUrlGuard.ALLOW_PRIVATE_TARGETS);
    }
    return CallbackUrlGuard.of(stack, allowPrivateTargets, PortSet.parse(platformPorts));
  }

  @Bean
  @ConditionalOnMissingBean
  RecordIds recordIds(Clock clock) {
    return new RecordIds(clock);
  }

  /** auth-service's revocation feed, followed by this service's verifier. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty("lipa.security.jwks-uri")
  RevocationFeed revocationFeed(SecurityProperties properties, @Value("${lipa.internal.token:}") String internalToken,
      Clock clock) {
    return properties.startRevocationFeed(internalToken, clock);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnProperty("lipa.security.jwks-uri")
  TokenVerifier tokenVerifier(SecurityProperties properties, Clock clock, RevocationFeed revocations) {
    JwksKeys keys = new JwksKeys(properties.jwksUri(), clock, properties.jwksMinRefetchInterval());
    return new TokenVerifier(keys, properties.issuer(), properties.audience(), clock,
        properties.verifiedTokenCacheTtl(), revocations);
  }

  @Bean
  @ConditionalOnProperty("lipa.security.jwks-uri")
  FilterRegistrationBean<BearerTokenFilter> bearerTokenFilter(TokenVerifier verifier, SecurityProperties properties,
      JsonMapper json, StackEnvironment stack) {
    FilterRegistrationBean<BearerTokenFilter> bean = new FilterRegistrationBean<>(new BearerTokenFilter(verifier,
        properties.protectedPaths(), properties.publicPaths(), json, stack.environment()));
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return bean;
  }
}
