package dev.lipa.common.environment;

import dev.lipa.common.events.Topics;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The names of this service's environment ({@link StackEnvironment}) as settings, below everything else so that a
 * service's own configuration, the environment or a test's properties can still name something otherwise; an unknown
 * {@code lipa.environment} stops the start here, before anything is built.
 *
 * <ul>
 *   <li>{@code lipa.topics.collections}, {@code .payouts}, {@code .checkout}, {@code .callbacks},
 *       {@code .organisations}: the topics, for {@code @KafkaListener} annotations ({@link Topics.OfEnvironment}) and
 *       the production guard's lists;
 *   <li>{@code lipa.stack.suffix}: what consumer group ids and database names end with ({@code spring.mongodb.database:
 *       lipa-payouts${lipa.stack.suffix}});
 *   <li>{@code lipa.stack.api-base}: where the operational paths start, for the controllers' mappings;
 *   <li>{@code lipa.stack.page-prefix}: what the public addresses of a stack's pages (the hosted checkout) start with
 *       at the gateway: nothing, or {@code /live} ({@code /live/checkout/...}, which the gateway sends to the live
 *       stack's {@code /checkout/...}).
 * </ul>
 */
public class EnvironmentDefaults implements EnvironmentPostProcessor {

  static final String SOURCE = "lipaEnvironmentDefaults";
  public static final String SUFFIX = "lipa.stack.suffix";
  public static final String API_BASE = "lipa.stack.api-base";
  public static final String PAGE_PREFIX = "lipa.stack.page-prefix";

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    StackEnvironment stack = StackEnvironment.of(environment);
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("lipa.topics.collections", stack.topic(Topics.COLLECTIONS));
    defaults.put("lipa.topics.payouts", stack.topic(Topics.PAYOUTS));
    defaults.put("lipa.topics.checkout", stack.topic(Topics.CHECKOUT));
    defaults.put("lipa.topics.callbacks", stack.topic(Topics.CALLBACKS));
    defaults.put("lipa.topics.organisations", stack.topic(Topics.ORGANISATIONS));
    defaults.put(SUFFIX, stack.suffix());
    defaults.put(API_BASE, stack.apiBase());
    defaults.put(PAGE_PREFIX, stack.pagePrefix());
    environment.getPropertySources().addLast(new MapPropertySource(SOURCE, defaults));
  }
}
