package dev.lipa.common.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ClientAddressesTests {

  private final ClientAddresses loopbackGateway = new ClientAddresses(ClientAddresses.LOOPBACK);
  private final ClientAddresses cluster = new ClientAddresses(List.of("10.0.0.0/8", "fd00::/8", "127.0.0.1"));

  @Nested
  class UntrustedPeer {

    @Test
    void isTheClientWhateverForwardedForSays() {
      assertThat(loopbackGateway.resolve("203.0.113.9", List.of("1.2.3.4"))).isEqualTo("203.0.113.9");
      assertThat(cluster.resolve("192.168.1.7", List.of("1.2.3.4, 10.0.0.1"))).isEqualTo("192.168.1.7");
    }
  }

  @Nested
  class TrustedPeer {

    @Test
    void takesTheAddressItsProxyAppended() {
      // the client sent "X-Forwarded-For: 1.2.3.4"; the gateway appended the real peer
      assertThat(loopbackGateway.resolve("127.0.0.1", List.of("1.2.3.4,198.51.100.20"))).isEqualTo("198.51.100.20");
    }

    @Test
    void skipsEveryTrustedProxyFromTheRight() {
      assertThat(cluster.resolve("10.1.2.3", List.of("6.6.6.6, 198.51.100.20", "10.9.9.9"))).isEqualTo("198.51.100.20");
    }

    @Test
    void isTheClientItselfWithoutTheHeader() {
      assertThat(loopbackGateway.resolve("127.0.0.1", List.of())).isEqualTo("127.0.0.1");
      assertThat(loopbackGateway.resolve("127.0.0.1", null)).isEqualTo("127.0.0.1");
    }

    @Test
    void takesTheLeftmostWhenEveryHopIsTrusted() {
      assertThat(cluster.resolve("10.0.0.2", List.of("10.0.0.3, 10.0.0.4"))).isEqualTo("10.0.0.3");
    }

    static Stream<Arguments> unreadable() {
      return Stream.of(
          Arguments.of(Named.of("a name", "evil.example")),
          Arguments.of(Named.of("garbage", "%%%")),
          Arguments.of(Named.of("an octet over 255", "1.2.3.400")),
          Arguments.of(Named.of("unknown", "unknown")));
    }

    @ParameterizedTest
    @MethodSource("unreadable")
    void stopsAtTheLastTrustedHopOnAnUnreadableEntry(String entry) {
      assertThat(cluster.resolve("10.0.0.2", List.of("1.2.3.4, " + entry))).isEqualTo("10.0.0.2");
    }

    @Test
    void readsPortsBracketsAndMappedAddresses() {
      assertThat(loopbackGateway.resolve("127.0.0.1", List.of("198.51.100.20:4711"))).isEqualTo("198.51.100.20");
      assertThat(loopbackGateway.resolve("::1", List.of("::ffff:198.51.100.20"))).isEqualTo("198.51.100.20");
    }
  }

  @Nested
  class Ipv6 {

    @Test
    void keysAClientByItsSlash64() {
      String one = loopbackGateway.resolve("2001:db8:1:2::10", List.of());
      String other = loopbackGateway.resolve("2001:db8:1:2:ffff:1:2:3", List.of());
      assertThat(one).isEqualTo("2001:db8:1:2:0:0:0:0/64").isEqualTo(other);
      assertThat(loopbackGateway.resolve("[::1]", List.of("[2001:db8:9:9::1]"))).isEqualTo("2001:db8:9:9:0:0:0:0/64");
    }

    @Test
    void namesTheExactClientForAnAuditRecord() {
      assertThat(loopbackGateway.client("2001:db8:1:2::10", List.of())).isEqualTo("2001:db8:1:2:0:0:0:10");
      assertThat(cluster.client("10.1.1.1", List.of("198.51.100.7, 10.2.2.2"))).isEqualTo("198.51.100.7");
      assertThat(cluster.client("198.51.100.8", List.of("10.2.2.2"))).isEqualTo("198.51.100.8");
      assertThat(cluster.client("not-an-address", List.of())).isEqualTo("not-an-address");
    }

    @Test
    void matchesIpv6Blocks() {
      assertThat(cluster.resolve("fd12::5", List.of("2001:db8::7"))).isEqualTo("2001:db8:0:0:0:0:0:0/64");
    }
  }

  @Test
  void refusesMalformedBlocks() {
    assertThatThrownBy(() -> new ClientAddresses(List.of("10.0.0.0/33"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ClientAddresses(List.of("gateway.local"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ClientAddresses(List.of("10.0.0.0/x"))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void matchesPrefixesThatEndInsideAByte() {
    ClientAddresses twelve = new ClientAddresses(List.of("172.16.0.0/12"));
    assertThat(twelve.resolve("172.31.255.255", List.of("8.8.8.8"))).isEqualTo("8.8.8.8");
    assertThat(twelve.resolve("172.32.0.1", List.of("8.8.8.8"))).isEqualTo("172.32.0.1");
  }
}
