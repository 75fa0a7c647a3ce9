package dev.lipa.common.environment;

import java.util.Map;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code lipa.environment} names the environment of {@link ConditionalOnEnvironment}. */
class OnEnvironmentCondition implements Condition {

  @Override
  public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
    Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnEnvironment.class.getName());
    Environment wanted = (Environment) attributes.get("value");
    return StackEnvironment.of(context.getEnvironment()).environment() == wanted;
  }
}
