package dev.lipa.common.testsupport;

import java.time.Duration;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.support.TestPropertySourceUtils;

/**
 * Like {@link SharedInfraInitializer}, but the service reaches the shared store through the {@link LostAnswerProxy},
 * so a test can lose the answer of one of its writes: {@code @ContextConfiguration(initializers =
 * LostAnswerProxyInitializer.class)}. Server selection gives up after 5 s.
 */
public class LostAnswerProxyInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

  @Override
  public void initialize(ConfigurableApplicationContext context) {
    new SharedInfraInitializer().initialize(context);
    TestPropertySourceUtils.addInlinedPropertiesToEnvironment(context,
        "spring.mongodb.uri=" + LostAnswerProxy.shared().mongoUri(Duration.ofSeconds(5)));
  }
}
