package dev.lipa.common.testsupport;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Under the containers profile, skips every test (before any Spring context starts) when no container engine is
 * reachable, with a message saying so, instead of failing each context that asks {@link SharedInfra} for a broker.
 * Registered through JUnit's extension auto-detection, which only the profile switches on; in every other run it is
 * not loaded at all.
 */
public final class ContainersGate implements ExecutionCondition {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (Containers.wanted() && !Containers.engineAvailable()) {
      return ConditionEvaluationResult.disabled(Containers.WHY_NOT);
    }
    return ConditionEvaluationResult.enabled("in-process infrastructure, or a container engine is reachable");
  }
}
