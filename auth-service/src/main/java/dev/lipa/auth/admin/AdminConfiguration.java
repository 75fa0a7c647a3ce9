package dev.lipa.auth.admin;

import dev.lipa.common.servlet.OperatorTokenFilter;
import dev.lipa.auth.AuthProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/** Puts the operator check in front of the admin API. */
@Configuration(proxyBeanMethods = false)
class AdminConfiguration {

  private static final Logger log = LoggerFactory.getLogger(AdminConfiguration.class);
  private static final int RECOMMENDED_MIN_LENGTH = 32;

  @Bean
  FilterRegistrationBean<OperatorTokenFilter> operatorTokenFilter(AuthProperties properties, JsonMapper json) {
    if (!properties.operatorApiConfigured()) {
      log.warn("LIPA_OPERATOR_TOKEN is not set: the operator admin API answers 503");
    } else if (properties.operatorToken().length() < RECOMMENDED_MIN_LENGTH) {
      log.warn("the operator token is shorter than {} characters; use a long random value", RECOMMENDED_MIN_LENGTH);
    }
    FilterRegistrationBean<OperatorTokenFilter> bean =
        new FilterRegistrationBean<>(new OperatorTokenFilter(properties.operatorToken(), json));
    // after the correlation id (so refusals are traceable), before anything else
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
    return bean;
  }
}
