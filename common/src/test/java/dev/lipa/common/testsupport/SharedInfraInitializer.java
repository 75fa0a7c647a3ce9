package dev.lipa.common.testsupport;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.support.TestPropertySourceUtils;

/**
 * Points a Spring test context at the shared store, broker and test issuer, with the test master key ring:
 * {@code @ContextConfiguration(initializers = SharedInfraInitializer.class)}.
 */
public class SharedInfraInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

  @Override
  public void initialize(ConfigurableApplicationContext context) {
    TestPropertySourceUtils.addInlinedPropertiesToEnvironment(context,
        "spring.mongodb.uri=" + SharedInfra.mongoUri(),
        "spring.kafka.bootstrap-servers=" + SharedInfra.kafkaBootstrapServers(),
        "lipa.security.jwks-uri=" + TestIssuer.shared().jwksUri(),
        "lipa.secrets.master-keys=" + SharedInfra.MASTER_KEYS);
  }
}
