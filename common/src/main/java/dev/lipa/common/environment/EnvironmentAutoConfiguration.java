package dev.lipa.common.environment;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@link StackEnvironment} every service and mechanism asks which environment it serves. */
@AutoConfiguration
public class EnvironmentAutoConfiguration {

  private static final Logger log = LoggerFactory.getLogger(EnvironmentAutoConfiguration.class);

  @Bean
  @ConditionalOnMissingBean
  StackEnvironment stackEnvironment(org.springframework.core.env.Environment settings) {
    StackEnvironment stack = StackEnvironment.of(settings);
    log.info("serving the {} environment", stack.environment().claim());
    return stack;
  }
}
