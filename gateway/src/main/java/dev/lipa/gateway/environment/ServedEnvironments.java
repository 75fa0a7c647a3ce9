package dev.lipa.gateway.environment;

import dev.lipa.common.environment.Environment;
import dev.lipa.gateway.GatewayProperties;
import dev.lipa.gateway.routing.UpstreamInstances;
import java.util.EnumSet;
import java.util.Set;

/**
 * The environments whose paths this gateway serves: those {@code lipa.gateway.environments} names, or by default the
 * sandbox, and live as well once a live upstream is configured. A gateway may serve the live stack alone.
 */
public final class ServedEnvironments {

  private final Set<Environment> served;

  public ServedEnvironments(Set<Environment> served) {
    if (served.isEmpty()) {
      throw new IllegalArgumentException("lipa.gateway.environments: at least one environment must be served");
    }
    this.served = Set.copyOf(EnumSet.copyOf(served));
  }

  /** What the settings ask for, with the default worked out from the live upstreams configured. */
  public static ServedEnvironments of(GatewayProperties gateway, UpstreamInstances upstreams) {
    if (!gateway.environments().isEmpty()) {
      return new ServedEnvironments(gateway.environments());
    }
    return new ServedEnvironments(upstreams.liveUpstreams().isEmpty()
        ? EnumSet.of(Environment.SANDBOX) : EnumSet.of(Environment.SANDBOX, Environment.LIVE));
  }

  public boolean serves(Environment environment) {
    return served.contains(environment);
  }

  /**
   * Where a path without an environment goes when the caller has no valid token to say which: the sandbox when it
   * is served, else live. The token check on that route then refuses the call (401), whichever it is.
   */
  public Environment withoutToken() {
    return serves(Environment.SANDBOX) ? Environment.SANDBOX : Environment.LIVE;
  }

  public Set<Environment> served() {
    return served;
  }

  @Override
  public String toString() {
    return served.stream().map(Environment::claim).sorted().toList().toString();
  }
}
