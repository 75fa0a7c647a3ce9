package dev.lipa.gateway.routing;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The replicas of each upstream service ({@code lipa.gateway.upstreams.<service>.instances}, a comma-separated list
 * the launcher sets from its port table): a service with instances is routed through {@code lb://<service>} and
 * balanced across them by Spring Cloud LoadBalancer; a service without keeps its one {@code uri}, as before.
 *
 * @param upstreams every upstream by service name
 */
@ConfigurationProperties("lipa.gateway")
public record UpstreamInstances(@DefaultValue Map<String, Upstream> upstreams) {

  /**
   * One upstream service.
   *
   * @param uri where its routes go: {@code http://host:port} for one instance, {@code lb://<service>} for replicas
   * @param instances its replicas' base URIs, empty for a single instance
   */
  public record Upstream(URI uri, @DefaultValue List<URI> instances) {
  }

  public UpstreamInstances {
    upstreams = Map.copyOf(upstreams);
    // a half-configured service would either never balance (instances, but an http uri) or answer 503 for every
    // request (lb uri, no instances): both refuse to start rather than look fine
    upstreams.forEach((service, upstream) -> {
      boolean balanced = upstream.uri() != null && "lb".equals(upstream.uri().getScheme());
      if (balanced && !service.equals(upstream.uri().getHost())) {
        throw new IllegalArgumentException("lipa.gateway.upstreams." + service + ".uri must be lb://" + service
            + ", was " + upstream.uri());
      }
      if (balanced && upstream.instances().isEmpty()) {
        throw new IllegalArgumentException("lipa.gateway.upstreams." + service + ".uri is " + upstream.uri()
            + " but no instances are listed (lipa.gateway.upstreams." + service + ".instances)");
      }
      if (!balanced && !upstream.instances().isEmpty()) {
        throw new IllegalArgumentException("lipa.gateway.upstreams." + service + ".instances are listed but its uri "
            + upstream.uri() + " is not lb://" + service + ": the replicas would never be used");
      }
      upstream.instances().forEach(instance -> {
        if (!"http".equals(instance.getScheme()) || instance.getHost() == null || instance.getPort() < 1) {
          throw new IllegalArgumentException("lipa.gateway.upstreams." + service + ".instances: expected"
              + " http://host:port, was " + instance);
        }
      });
    });
  }

  /** The replicas of a service, empty when it is not balanced. */
  public List<URI> instancesOf(String service) {
    Upstream upstream = upstreams.get(service);
    return upstream == null ? List.of() : List.copyOf(upstream.instances());
  }
}
