package dev.lipa.common.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The observability policy's metric part, the same in every service (docs/operations.md, "Observability"): every
 * meter passes the {@link TagPolicy} (no raw path, id or phone number in a tag) and carries the {@code application}
 * tag (the service's name, so one dashboard query covers a service's replicas), and the services count payments
 * through one {@link PaymentMetrics}. Spring Boot applies every {@link MeterFilter} bean to every registry it makes,
 * before the first meter is registered.
 */
@AutoConfiguration
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
public class MetricsAutoConfiguration {

  @Bean
  TagPolicy metricTagPolicy() {
    return new TagPolicy();
  }

  @Bean
  MeterFilter applicationTag(@Value("${spring.application.name:unnamed}") String application) {
    return MeterFilter.commonTags(Tags.of("application", application));
  }

  @Bean
  @ConditionalOnMissingBean
  PaymentMetrics paymentMetrics(ObjectProvider<MeterRegistry> registry) {
    return new PaymentMetrics(registry.getIfAvailable(SimpleMeterRegistry::new));
  }
}
