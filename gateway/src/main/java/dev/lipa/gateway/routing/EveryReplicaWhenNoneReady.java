package dev.lipa.gateway.routing;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.ReactiveDiscoveryClient;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The replicas whose readiness answered UP at the last health check, or every replica of the service when none did
 * (a load balancer's panic mode). A health check that takes longer than its interval counts as not ready, so on a
 * loaded machine, or while one replica drains in a rolling restart and the other is busy, a round of checks can find
 * no replica ready although every one serves: refusing every request with 503 then would turn a slow check into an
 * outage. Sent to every replica instead, a request to one that really is gone has its connection refused and goes
 * to the next ({@link ConnectRefusedRetryFilter}); one that drains still answers what reaches it.
 */
public class EveryReplicaWhenNoneReady extends DelegatingServiceInstanceListSupplier {

  private static final Logger log = LoggerFactory.getLogger(EveryReplicaWhenNoneReady.class);

  private final Mono<List<ServiceInstance>> every;
  private final AtomicBoolean panicking = new AtomicBoolean();

  public EveryReplicaWhenNoneReady(ServiceInstanceListSupplier ready, ReactiveDiscoveryClient replicas) {
    super(ready);
    this.every = replicas.getInstances(ready.getServiceId()).collectList().cache();
  }

  @Override
  public Flux<List<ServiceInstance>> get() {
    return delegate.get().concatMap(ready -> {
      if (!ready.isEmpty()) {
        if (panicking.compareAndSet(true, false)) {
          log.info("{}: replicas ready again ({}), requests go to them alone", getServiceId(), ready.size());
        }
        return Mono.just(ready);
      }
      if (panicking.compareAndSet(false, true)) {
        log.warn("{}: no replica answered ready at the last health check; sending requests to every replica until"
            + " one does", getServiceId());
      }
      return every;
    });
  }
}
