package dev.lipa.common.testsupport;

import java.time.Duration;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.support.TestPropertySourceUtils;

/**
 * Like {@link SharedInfraInitializer}, but the service reaches the shared store through the {@link StoreProxy}, so a
 * test can fail the store under it: {@code @ContextConfiguration(initializers = StoreProxyInitializer.class)}.
 * Server selection gives up after 2 s (or the milliseconds the test's property {@value #TIMEOUT_PROPERTY} says)
 * instead of the driver's 30 s, so that an operation against a cut store fails soon.
 */
public class StoreProxyInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

  public static final String TIMEOUT_PROPERTY = "test.store-proxy.server-selection-timeout-ms";

  @Override
  public void initialize(ConfigurableApplicationContext context) {
    new SharedInfraInitializer().initialize(context);
    long timeout = context.getEnvironment().getProperty(TIMEOUT_PROPERTY, Long.class, 2000L);
    TestPropertySourceUtils.addInlinedPropertiesToEnvironment(context,
        "spring.mongodb.uri=" + StoreProxy.shared().mongoUri(Duration.ofMillis(timeout)));
  }
}
