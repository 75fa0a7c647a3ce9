package dev.lipa.checkout.config;

import dev.lipa.common.security.TokenVerifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/** The checkout API's own token filter and the hosted page's security headers. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration {

  @Bean
  @ConditionalOnProperty("lipa.security.jwks-uri")
  FilterRegistrationBean<CheckoutTokenFilter> checkoutTokenFilter(TokenVerifier verifier, JsonMapper json) {
    FilterRegistrationBean<CheckoutTokenFilter> bean = new FilterRegistrationBean<>(
        new CheckoutTokenFilter(verifier, json));
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return bean;
  }

  @Bean
  FilterRegistrationBean<PageSecurityHeadersFilter> pageSecurityHeadersFilter() {
    FilterRegistrationBean<PageSecurityHeadersFilter> bean = new FilterRegistrationBean<>(
        new PageSecurityHeadersFilter());
    bean.addUrlPatterns("/checkout/*");
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
    return bean;
  }
}
