package dev.lipa.checkout.page;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** The hosted page's security headers, on the page and its JSON API. */
@Configuration(proxyBeanMethods = false)
class PageConfiguration {

  @Bean
  FilterRegistrationBean<PageSecurityHeadersFilter> pageSecurityHeadersFilter() {
    FilterRegistrationBean<PageSecurityHeadersFilter> bean = new FilterRegistrationBean<>(
        new PageSecurityHeadersFilter());
    bean.addUrlPatterns("/checkout/*");
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
    return bean;
  }
}
