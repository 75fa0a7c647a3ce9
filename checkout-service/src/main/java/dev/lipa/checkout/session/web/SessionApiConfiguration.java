package dev.lipa.checkout.session.web;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.security.TokenVerifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/** The checkout-session API's own token filter. */
@Configuration(proxyBeanMethods = false)
class SessionApiConfiguration {

  @Bean
  @ConditionalOnProperty("lipa.security.jwks-uri")
  FilterRegistrationBean<CheckoutTokenFilter> checkoutTokenFilter(TokenVerifier verifier, JsonMapper json,
      StackEnvironment stack) {
    FilterRegistrationBean<CheckoutTokenFilter> bean = new FilterRegistrationBean<>(
        new CheckoutTokenFilter(verifier, json, stack));
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return bean;
  }
}
