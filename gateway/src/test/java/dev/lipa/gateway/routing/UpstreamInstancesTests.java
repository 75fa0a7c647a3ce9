package dev.lipa.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.ConnectException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpstreamInstancesTests {

  @Test
  void aServiceWithReplicasMustBeRoutedThroughTheLoadBalancer() {
    assertThatThrownBy(() -> upstream("http://127.0.0.1:8084", "http://127.0.0.1:8084", "http://127.0.0.1:8094"))
        .hasMessageContaining("the replicas would never be used");
  }

  @Test
  void aBalancedServiceWithoutInstancesIsRefused() {
    assertThatThrownBy(() -> upstream("lb://payouts-service")).hasMessageContaining("no instances are listed");
  }

  @Test
  void aBalancedUriMustNameItsOwnService() {
    assertThatThrownBy(() -> upstream("lb://collections-service", "http://127.0.0.1:8084"))
        .hasMessageContaining("must be lb://payouts-service");
  }

  @Test
  void anInstanceMustBeAnHttpAddressWithAPort() {
    assertThatThrownBy(() -> upstream("lb://payouts-service", "https://127.0.0.1"))
        .hasMessageContaining("expected http://host:port");
  }

  @Test
  void aSingleInstanceServiceKeepsItsUriAndHasNoReplicas() {
    assertThat(upstream("http://127.0.0.1:8084").instancesOf("payouts-service")).isEmpty();
  }

  @Test
  void onlyAFailureToConnectCountsAsNeverSent() {
    assertThat(ConnectRefusedRetryFilter.neverConnected(new ConnectException("refused"))).isTrue();
    assertThat(ConnectRefusedRetryFilter.neverConnected(new IllegalStateException(new ConnectException("x"))))
        .isTrue();
    assertThat(ConnectRefusedRetryFilter.neverConnected(new java.io.IOException("Connection reset by peer")))
        .isFalse();
    assertThat(ConnectRefusedRetryFilter.neverConnected(new java.util.concurrent.TimeoutException())).isFalse();
  }

  private static UpstreamInstances upstream(String uri, String... instances) {
    return new UpstreamInstances(Map.of("payouts-service", new UpstreamInstances.Upstream(URI.create(uri),
        List.of(instances).stream().map(URI::create).toList(), null, null)), Map.of());
  }
}
