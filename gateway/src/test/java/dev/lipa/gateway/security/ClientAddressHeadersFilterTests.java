package dev.lipa.gateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.ratelimit.ClientAddresses;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class ClientAddressHeadersFilterTests {

  @Test
  void replacesWhatAClientClaimsWithItsOwnAddress() {
    ClientAddressHeadersFilter filter = new ClientAddressHeadersFilter(new ClientAddresses(List.of()));

    assertThat(forwardedFor(filter, "198.51.100.7", "1.2.3.4", "5.6.7.8, 9.9.9.9")).containsExactly("198.51.100.7");
  }

  @Test
  void believesATrustedLoadBalancerAboutTheClientItNames() {
    ClientAddressHeadersFilter filter = new ClientAddressHeadersFilter(new ClientAddresses(List.of("10.0.0.0/8")));

    // read from the right: 10.2.2.2 is another trusted hop, 203.0.113.9 the first that is not; 1.2.3.4 is a claim
    assertThat(forwardedFor(filter, "10.1.1.1", "1.2.3.4, 203.0.113.9, 10.2.2.2")).containsExactly("203.0.113.9");
  }

  @Test
  void setsTheHeaderEvenWhenTheClientSentNoneAndKeepsTheOthers() {
    ClientAddressHeadersFilter filter = new ClientAddressHeadersFilter(new ClientAddresses(List.of()));
    MockServerWebExchange exchange = exchange("2001:db8::5");
    HttpHeaders proxied = new HttpHeaders();
    proxied.add("Authorization", "Bearer t");

    HttpHeaders out = filter.filter(proxied, exchange);

    assertThat(out.get("X-Forwarded-For")).containsExactly("2001:db8:0:0:0:0:0:5");
    assertThat(out.getFirst("Authorization")).isEqualTo("Bearer t");
  }

  @Test
  void dropsEveryOtherHeaderThatNamesAClientInAnySpelling() {
    ClientAddressHeadersFilter filter = new ClientAddressHeadersFilter(new ClientAddresses(List.of()));
    HttpHeaders proxied = new HttpHeaders();
    for (String claim : ClientAddressHeadersFilter.CLIENT_CLAIMS) {
      proxied.add(claim.toLowerCase(java.util.Locale.ROOT), "196.201.214.200");
    }
    proxied.add("x-REAL-ip", "196.201.214.200");

    HttpHeaders out = filter.filter(proxied, exchange("198.51.100.7"));

    assertThat(out.toString()).doesNotContain("196.201.214.200");
    assertThat(out.get("X-Forwarded-For")).containsExactly("198.51.100.7");
  }

  private static List<String> forwardedFor(ClientAddressHeadersFilter filter, String peer, String... claims) {
    MockServerWebExchange exchange = exchange(peer, claims);
    // what the gateway would proxy after removing the client's X-Forwarded-* headers
    return filter.filter(new HttpHeaders(), exchange).get("X-Forwarded-For");
  }

  private static MockServerWebExchange exchange(String peer, String... xForwardedFor) {
    MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/api/sandbox/v1/balance")
        .remoteAddress(new InetSocketAddress(peer, 40000));
    for (String value : xForwardedFor) {
      request.header("X-Forwarded-For", value);
    }
    return MockServerWebExchange.from(request);
  }
}
