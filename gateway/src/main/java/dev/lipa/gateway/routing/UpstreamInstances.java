package dev.lipa.gateway.routing;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The upstream services of each environment's stack: the sandbox's ({@code lipa.gateway.upstreams.<service>}, with
 * auth-service, which both environments share) and the live stack's ({@code lipa.gateway.live-upstreams.<service>}).
 * A service with instances (a comma-separated list the launcher sets from its port table) is routed through
 * {@code lb://<service>} (live: {@code lb://<service>-live}) and balanced across them by Spring Cloud LoadBalancer; a
 * service without keeps its one {@code uri}.
 *
 * @param upstreams the sandbox stack's services and auth-service, by service name
 * @param liveUpstreams the live stack's services by service name; none configured: the gateway serves no live path
 *     (unless {@code lipa.gateway.environments} says otherwise, which then refuses to start)
 */
@ConfigurationProperties("lipa.gateway")
public record UpstreamInstances(@DefaultValue Map<String, Upstream> upstreams,
    @DefaultValue Map<String, Upstream> liveUpstreams) {

  /** What the load balancer calls the live instance of a service (its circuit breaker has the same name). */
  public static final String LIVE_SUFFIX = "-live";

  /**
   * One upstream service.
   *
   * @param uri where its routes go: {@code http://host:port} for one instance, {@code lb://<service>} for replicas
   * @param instances its replicas' base URIs, empty for a single instance
   * @param connectTimeoutMillis live stack only: its own connect timeout (null: the sandbox route's)
   * @param responseTimeoutMillis live stack only: its own response timeout (null: the sandbox route's)
   */
  public record Upstream(URI uri, @DefaultValue List<URI> instances, Long connectTimeoutMillis,
      Long responseTimeoutMillis) {
  }

  public UpstreamInstances {
    upstreams = Map.copyOf(upstreams);
    // a live service without a uri (an empty LIVE_COLLECTIONS_URI) is not configured
    liveUpstreams = liveUpstreams.entrySet().stream().filter(e -> e.getValue().uri() != null
            && !e.getValue().uri().toString().isBlank())
        .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
    upstreams.forEach((service, upstream) -> check("lipa.gateway.upstreams." + service, service, upstream));
    liveUpstreams.forEach((service, upstream) ->
        check("lipa.gateway.live-upstreams." + service, service + LIVE_SUFFIX, upstream));
  }

  // a half-configured service would either never balance (instances, but an http uri) or answer 503 for every request
  // (lb uri, no instances): both refuse to start rather than look fine
  private static void check(String property, String balancedName, Upstream upstream) {
    boolean balanced = upstream.uri() != null && "lb".equals(upstream.uri().getScheme());
    if (balanced && !balancedName.equals(upstream.uri().getHost())) {
      throw new IllegalArgumentException(property + ".uri must be lb://" + balancedName + ", was " + upstream.uri());
    }
    if (balanced && upstream.instances().isEmpty()) {
      throw new IllegalArgumentException(property + ".uri is " + upstream.uri() + " but no instances are listed ("
          + property + ".instances)");
    }
    if (!balanced && !upstream.instances().isEmpty()) {
      throw new IllegalArgumentException(property + ".instances are listed but its uri " + upstream.uri()
          + " is not lb://" + balancedName + ": the replicas would never be used");
    }
    upstream.instances().forEach(instance -> {
      if (!"http".equals(instance.getScheme()) || instance.getHost() == null || instance.getPort() < 1) {
        throw new IllegalArgumentException(property + ".instances: expected http://host:port, was " + instance);
      }
    });
  }

  /** The replicas of a balanced service ({@code <service>} or {@code <service>-live}), empty when it is not. */
  public List<URI> instancesOf(String serviceId) {
    Upstream upstream = upstreams.get(serviceId);
    if (upstream == null && serviceId.endsWith(LIVE_SUFFIX)) {
      upstream = liveUpstreams.get(serviceId.substring(0, serviceId.length() - LIVE_SUFFIX.length()));
    }
    return upstream == null ? List.of() : List.copyOf(upstream.instances());
  }

  /** Every balanced service's id as the load balancer knows it. */
  public List<String> balancedServices() {
    return Stream.concat(upstreams.keySet().stream(),
            liveUpstreams.keySet().stream().map(service -> service + LIVE_SUFFIX))
        .filter(service -> !instancesOf(service).isEmpty())
        .toList();
  }
}
