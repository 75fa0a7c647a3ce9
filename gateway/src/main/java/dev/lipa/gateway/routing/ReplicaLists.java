package dev.lipa.gateway.routing;

import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Each balanced service's replica list, in the load balancer's own context per service: the discovery client's
 * replicas, health-checked ({@code spring.cloud.loadbalancer.health-check}), every one when none is ready. Neither a
 * {@code @Configuration} nor a member of one, so that only those contexts take it (LoadBalancingConfiguration names
 * it as their default configuration).
 */
class ReplicaLists {

  @Bean
  ServiceInstanceListSupplier replicas(ConfigurableApplicationContext context,
      StaticReplicasDiscoveryClient discovery) {
    return new EveryReplicaWhenNoneReady(
        ServiceInstanceListSupplier.builder().withDiscoveryClient().withHealthChecks().build(context), discovery);
  }
}
