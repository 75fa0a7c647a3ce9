package dev.lipa.gateway.routing;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Balancing across a service's replicas (the local cluster, a deployment with several): the static instance lists
 * as a discovery client for Spring Cloud LoadBalancer, each service's replicas filtered by their readiness (every
 * replica when none is ready, {@link EveryReplicaWhenNoneReady}) and the retry on another replica when a connection
 * is refused.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(UpstreamInstances.class)
@LoadBalancerClients(defaultConfiguration = ReplicaLists.class)
public class LoadBalancingConfiguration {

  @Bean
  StaticReplicasDiscoveryClient staticReplicasDiscoveryClient(UpstreamInstances upstreams) {
    return new StaticReplicasDiscoveryClient(upstreams);
  }

  /**
   * The client of the load balancer's health checks (the gateway itself proxies through Reactor Netty and has no
   * WebClient of its own; Spring Cloud LoadBalancer checks each replica's readiness with one).
   */
  @Bean
  @ConditionalOnMissingBean
  WebClient.Builder healthCheckWebClient() {
    return WebClient.builder();
  }

  @Bean
  ConnectRefusedRetryFilter connectRefusedRetryFilter(
      @Value("${lipa.gateway.connect-retry-attempts:2}") int attempts) {
    return new ConnectRefusedRetryFilter(attempts);
  }
}
