package dev.lipa.common.environment;

import dev.lipa.common.events.Topics;
import java.util.Objects;
import org.springframework.core.env.PropertyResolver;

/**
 * The environment this service runs for ({@code lipa.environment}: {@code sandbox}, the default, or {@code live}) and
 * the names that follow from it, decided here only: a live stack's topics carry the {@code live.} prefix
 * ({@code live.payments.collections.v1}), its consumer groups and databases the {@code -live} suffix
 * ({@code payouts-ledger-live}, {@code lipa-payouts-live}), its operational paths no {@code /sandbox} segment. The
 * sandbox names are the platform's names as they always were. The organisations topic is auth-service's and shared by
 * both environments.
 */
public record StackEnvironment(Environment environment) {

  /** The setting that names the environment. */
  public static final String PROPERTY = "lipa.environment";
  /**
   * Where this environment's operational paths start, for controllers' mappings:
   * {@code @RequestMapping(StackEnvironment.API + "/stk")} is {@code /api/sandbox/v1/stk} in the sandbox and
   * {@code /api/v1/stk} in live, and never the other.
   */
  public static final String API = "${" + EnvironmentDefaults.API_BASE + "}";
  public static final StackEnvironment SANDBOX = new StackEnvironment(Environment.SANDBOX);
  public static final StackEnvironment LIVE = new StackEnvironment(Environment.LIVE);
  static final String LIVE_TOPIC_PREFIX = "live.";
  static final String LIVE_SUFFIX = "-live";

  public StackEnvironment {
    Objects.requireNonNull(environment, "environment");
  }

  /**
   * The environment these settings name; sandbox when {@value #PROPERTY} is absent.
   *
   * @throws IllegalStateException with a message for the operator when the value is neither sandbox nor live
   */
  public static StackEnvironment of(PropertyResolver settings) {
    String name = settings.getProperty(PROPERTY);
    if (name == null || name.isBlank()) {
      return SANDBOX;
    }
    try {
      return Environment.of(name) == Environment.LIVE ? LIVE : SANDBOX;
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(PROPERTY + " (LIPA_ENVIRONMENT) must be sandbox or live, not '" + name.strip()
          + "': refusing to start rather than guess which money this service moves");
    }
  }

  public boolean isLive() {
    return environment == Environment.LIVE;
  }

  public boolean isSandbox() {
    return environment == Environment.SANDBOX;
  }

  /** This environment's name of a platform topic given by its sandbox name ({@link Topics}). */
  public String topic(String sandboxName) {
    if (!isLive() || Topics.ORGANISATIONS.equals(sandboxName)) {
      return sandboxName;
    }
    return LIVE_TOPIC_PREFIX + sandboxName;
  }

  /** What a consumer group id, a database name and the like carry at their end: nothing, or {@code -live}. */
  public String suffix() {
    return isLive() ? LIVE_SUFFIX : "";
  }

  /** This environment's consumer group id of a group given by its sandbox id. */
  public String groupId(String sandboxGroupId) {
    return sandboxGroupId + suffix();
  }

  /** This environment's name of a database given by its sandbox name. */
  public String database(String sandboxName) {
    return sandboxName + suffix();
  }

  /** What a public page address at the gateway starts with: nothing, or {@code /live} ({@code /live/checkout/...}). */
  public String pagePrefix() {
    return isLive() ? "/live" : "";
  }

  /** Where the operational API starts: {@code /api/sandbox/v1} or {@code /api/v1}. */
  public String apiBase() {
    return isLive() ? "/api/v1" : "/api/sandbox/v1";
  }
}
