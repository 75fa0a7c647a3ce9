package dev.lipa.gateway.routing;

import java.net.URI;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.ReactiveDiscoveryClient;
import reactor.core.publisher.Flux;

/**
 * The static instance lists of {@link UpstreamInstances} as a discovery client, for Spring Cloud LoadBalancer: the
 * load balancer takes each service's list from here and keeps only the replicas whose readiness answers UP (its
 * health-check supplier, application.yml {@code spring.cloud.loadbalancer}).
 */
public class StaticReplicasDiscoveryClient implements ReactiveDiscoveryClient {

  private final UpstreamInstances upstreams;

  public StaticReplicasDiscoveryClient(UpstreamInstances upstreams) {
    this.upstreams = upstreams;
  }

  @Override
  public String description() {
    return "the replicas listed in lipa.gateway.upstreams.<service>.instances and live-upstreams.<service>.instances";
  }

  @Override
  public Flux<ServiceInstance> getInstances(String serviceId) {
    return Flux.fromIterable(upstreams.instancesOf(serviceId)).index()
        .map(indexed -> instance(serviceId, indexed.getT1().intValue() + 1, indexed.getT2()));
  }

  @Override
  public Flux<String> getServices() {
    return Flux.fromIterable(upstreams.balancedServices());
  }

  private static ServiceInstance instance(String service, int replica, URI uri) {
    return new DefaultServiceInstance(service + "-" + replica, service, uri.getHost(), uri.getPort(), false);
  }
}
