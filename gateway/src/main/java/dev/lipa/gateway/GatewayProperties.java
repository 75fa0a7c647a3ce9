package dev.lipa.gateway;

import dev.lipa.common.environment.Environment;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The gateway's own rules ({@code lipa.gateway.*}). Upstream URIs and timeouts live under
 * {@code lipa.gateway.upstreams.<service>.*} and are wired into the routes in application.yml.
 *
 * @param maxBodyBytes the largest request body proxied, declared (Content-Length) or streamed (chunked)
 * @param deviceIdPaths exact paths that need a non-blank {@code Device-Id} header (spec endpoints 17 and 18)
 * @param operatorApiEnabled whether this gateway serves the operator API ({@code /admin/**}) at all; false on a
 *     public gateway whose operators reach the services' operator listeners on a private network
 * @param replicas how many gateway replicas serve the platform: limits enforced by each replica alone (requests per
 *     organisation) are divided by it
 * @param environments the environments whose paths this gateway serves; empty (the default): the sandbox, and live
 *     too when a live upstream is configured ({@code lipa.gateway.live-upstreams}). A path of an environment not
 *     served answers 404, as an unknown path does
 */
@ConfigurationProperties("lipa.gateway")
public record GatewayProperties(
    @DefaultValue("65536") long maxBodyBytes,
    @DefaultValue({"/api/v1/tz/collections/single", "/api/v1/tz/spending/single"}) Set<String> deviceIdPaths,
    @DefaultValue("true") boolean operatorApiEnabled,
    @DefaultValue("1") int replicas,
    @DefaultValue Set<Environment> environments) {

  public GatewayProperties {
    if (maxBodyBytes <= 0) {
      throw new IllegalArgumentException("lipa.gateway.max-body-bytes must be positive, was " + maxBodyBytes);
    }
    deviceIdPaths = Set.copyOf(deviceIdPaths);
    environments = Set.copyOf(environments);
    if (replicas < 1) {
      throw new IllegalArgumentException("lipa.gateway.replicas must be at least 1, was " + replicas);
    }
  }
}
