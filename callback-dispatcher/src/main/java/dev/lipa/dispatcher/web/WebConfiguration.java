package dev.lipa.dispatcher.web;

import dev.lipa.common.servlet.OperatorTokenFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/** Puts the operator check in front of the dead-letter API. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration {

  private static final Logger log = LoggerFactory.getLogger(WebConfiguration.class);

  @Bean
  FilterRegistrationBean<OperatorTokenFilter> operatorTokenFilter(
      @Value("${lipa.dispatcher.operator-token:}") String operatorToken, JsonMapper json) {
    if (operatorToken.isBlank()) {
      log.warn("LIPA_OPERATOR_TOKEN is not set: the dead-letter admin API answers 503");
    }
    FilterRegistrationBean<OperatorTokenFilter> bean =
        new FilterRegistrationBean<>(new OperatorTokenFilter(operatorToken, json));
    // after the correlation id (so refusals are traceable), before anything else
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
    return bean;
  }
}
