package dev.lipa.common.shutdown;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Readiness first, then the drain, then the shutdown ({@link ReadinessDrain}), in every web process of the platform:
 * the servlet services and the reactive gateway alike.
 */
@AutoConfiguration
@ConditionalOnWebApplication
@EnableConfigurationProperties(ShutdownSettings.class)
public class ShutdownAutoConfiguration {

  @Bean
  ReadinessDrain readinessDrain(ApplicationContext context, ShutdownSettings settings) {
    return new ReadinessDrain(context, settings);
  }
}
