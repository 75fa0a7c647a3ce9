package dev.lipa.common.callbacks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CallbackUrlGuardTests {

  /** A fake DNS: names map to fixed answers, so no test depends on the machine's resolver. */
  private static final Map<String, String[]> DNS = Map.of(
      "merchant.example", new String[] {"93.184.216.34"},
      "dual.merchant.example", new String[] {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"},
      "sneaky.example", new String[] {"93.184.216.34", "10.0.0.7"},
      "rebind.example", new String[] {"127.0.0.1"},
      "metadata.example", new String[] {"169.254.169.254"});

  private static InetAddress[] fakeDns(String host) throws UnknownHostException {
    String[] answers = DNS.get(host);
    if (answers == null) {
      throw new UnknownHostException(host);
    }
    InetAddress[] addresses = new InetAddress[answers.length];
    for (int i = 0; i < answers.length; i++) {
      addresses[i] = InetAddress.getByName(answers[i]); // literals: no lookup
    }
    return addresses;
  }

  private final CallbackUrlGuard live = new CallbackUrlGuard(false, CallbackUrlGuardTests::fakeDns);
  private final CallbackUrlGuard local = new CallbackUrlGuard(true, CallbackUrlGuardTests::fakeDns);

  static Stream<Named<String>> refusedInLive() {
    return Stream.of(
        Named.named("IPv4 loopback", "http://127.0.0.1/cb"),
        Named.named("loopback elsewhere in 127/8", "http://127.45.6.7/cb"),
        Named.named("decimal loopback", "http://2130706433/cb"),
        Named.named("octal loopback", "http://0177.0.0.1/cb"),
        Named.named("hex loopback", "http://0x7f000001/cb"),
        Named.named("dotted hex loopback", "http://0x7f.0x0.0x0.0x1/cb"),
        Named.named("short-form loopback", "http://127.1/cb"),
        Named.named("trailing-dot loopback", "http://127.0.0.1./cb"),
        Named.named("private 10/8", "http://10.1.2.3/cb"),
        Named.named("private 172.16/12", "http://172.16.0.1/cb"),
        Named.named("private 172.31 edge", "http://172.31.255.255/cb"),
        Named.named("private 192.168/16", "http://192.168.1.1:8080/cb"),
        Named.named("carrier-grade NAT", "http://100.64.0.1/cb"),
        Named.named("link-local", "http://169.254.10.10/cb"),
        Named.named("AWS metadata", "http://169.254.169.254/latest/meta-data"),
        Named.named("multicast", "http://224.0.0.1/cb"),
        Named.named("unspecified", "http://0.0.0.0/cb"),
        Named.named("decimal zero", "http://0/cb"),
        Named.named("broadcast", "http://255.255.255.255/cb"),
        Named.named("IPv6 loopback", "http://[::1]/cb"),
        Named.named("IPv6 unspecified", "http://[::]/cb"),
        Named.named("IPv6 link-local", "http://[fe80::1]/cb"),
        Named.named("IPv6 unique-local", "http://[fc00::1]/cb"),
        Named.named("IPv6 unique-local fd", "http://[fd12:3456::1]/cb"),
        Named.named("AWS IPv6 metadata", "http://[fd00:ec2::254]/cb"),
        Named.named("IPv6 multicast", "http://[ff02::1]/cb"),
        Named.named("IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/cb"),
        Named.named("IPv4-mapped loopback in hex", "http://[::ffff:7f00:1]/cb"),
        Named.named("IPv4-mapped private", "http://[::ffff:10.0.0.1]/cb"),
        Named.named("IPv4-compatible loopback", "http://[::127.0.0.1]/cb"),
        Named.named("NAT64 private", "http://[64:ff9b::10.0.0.1]/cb"),
        Named.named("6to4 loopback", "http://[2002:7f00:1::1]/cb"),
        Named.named("host name resolving to loopback", "http://rebind.example/cb"),
        Named.named("host name with one private address among public ones", "https://sneaky.example/cb"),
        Named.named("host name resolving to metadata", "http://metadata.example/cb"),
        Named.named("out-of-range number", "http://4294967296/cb"),
        Named.named("numeric last label", "http://merchant.123/cb"));
  }

  @ParameterizedTest
  @MethodSource("refusedInLive")
  void refusesNonPublicDestinationsInLive(String url) {
    // some spellings (127.1, dotted hex) are not even hosts to java.net.URI; those are refused as invalid hosts
    assertThatThrownBy(() -> live.check(url)).isInstanceOf(RefusedCallbackUrl.class)
        .hasMessageStartingWith("the callbackUrl ").hasMessageNotContaining("does not resolve");
  }

  static Stream<Named<String>> publicUrls() {
    return Stream.of(
        Named.named("host name", "https://merchant.example/callbacks/lipa"),
        Named.named("host name with IPv4 and IPv6 addresses", "https://dual.merchant.example/cb"),
        Named.named("public IPv4", "http://93.184.216.34:8443/cb"),
        Named.named("public IPv4 in decimal", "http://1572395042/cb"),
        Named.named("public IPv6", "https://[2606:2800:220:1:248:1893:25c8:1946]/cb"),
        Named.named("IPv4-mapped public", "http://[::ffff:93.184.216.34]/cb"),
        Named.named("next to private 172.16/12", "http://172.32.0.1/cb"),
        Named.named("next to CGNAT", "http://100.128.0.1/cb"));
  }

  @ParameterizedTest
  @MethodSource("publicUrls")
  void acceptsPublicDestinations(String url) {
    assertThat(live.check(url).toString()).isEqualTo(url);
  }

  static Stream<Named<String>> malformed() {
    return Stream.of(
        Named.named("not a URL", "not a url"),
        Named.named("relative", "/callbacks"),
        Named.named("ftp", "ftp://merchant.example/cb"),
        Named.named("file", "file:///etc/passwd"),
        Named.named("javascript", "javascript:alert(1)"),
        Named.named("credentials", "https://user:pass@merchant.example/cb"),
        Named.named("blank", " "));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void refusesUrlsThatAreNotAbsoluteHttp(String url) {
    assertThatThrownBy(() -> live.check(url)).isInstanceOf(RefusedCallbackUrl.class);
    assertThatThrownBy(() -> local.check(url)).isInstanceOf(RefusedCallbackUrl.class);
  }

  @Test
  void refusesAHostThatDoesNotResolve() {
    assertThatThrownBy(() -> live.check("https://nowhere.example/cb")).isInstanceOf(RefusedCallbackUrl.class)
        .hasMessage("the callbackUrl host does not resolve");
  }

  @Nested
  class LocalPlatform {

    @Test
    void allowsLoopbackAndPrivateTargets() {
      assertThat(local.check("http://127.0.0.1:9000/cb")).isNotNull();
      assertThat(local.check("http://rebind.example/cb")).isNotNull();
      assertThat(local.check("http://192.168.1.20/cb")).isNotNull();
      assertThat(local.check("http://[::1]:9000/cb")).isNotNull();
    }

    @Test
    void stillRefusesCloudMetadataInEverySpelling() {
      for (String url : new String[] {"http://169.254.169.254/", "http://2852039166/", "http://metadata.example/",
          "http://[::ffff:169.254.169.254]/", "http://[fd00:ec2::254]/"}) {
        assertThatThrownBy(() -> local.check(url)).as(url).isInstanceOf(RefusedCallbackUrl.class)
            .hasMessageContaining("cloud metadata");
      }
    }

    @Test
    void refusesThePlatformsOwnPortsOnEveryNonPublicSpellingOfAnAddress() {
      // a callback to the operator API or a service behind the gateway would read the platform's own answers into
      // a delivery log the merchant can read
      for (String url : new String[] {"http://127.0.0.1:8081/admin/v1/organisations", "http://localhost.:8080/",
          "http://2130706433:8083/", "http://0x7f000001:8084/", "http://[::1]:8085/", "http://[::ffff:127.0.0.1]:8082/",
          "http://rebind.example:8081/", "http://0.0.0.0:27017/", "http://192.168.1.20:9092/",
          "http://10.0.0.1:9093/", "http://127.0.0.1:80/", "https://127.0.0.1/"}) {
        CallbackUrlGuard guard = new CallbackUrlGuard(true, PortSet.parse("80,443,8080-8085,9092-9093,27017"),
            host -> host.equals("localhost") ? new InetAddress[] {InetAddress.getLoopbackAddress()}
                : CallbackUrlGuardTests.fakeDns(host));
        assertThatThrownBy(() -> guard.check(url)).as(url).isInstanceOf(RefusedCallbackUrl.class)
            .hasMessageContaining("the platform's own ports");
        assertThatThrownBy(() -> guard.requireAcceptable("callbackUrl", url)).as(url)
            .isInstanceOf(dev.lipa.common.web.ValidationException.class);
      }
    }

    @Test
    void allowsOtherPortsLocallyAndThePlatformsPortsOnPublicHosts() throws UnknownHostException {
      assertThat(local.check("http://127.0.0.1:9000/cb")).isNotNull();
      assertThat(local.check("http://merchant.example:8081/cb")).isNotNull();
      assertThat(local.resolve("127.0.0.1", 9000)).hasSize(1);
      assertThatThrownBy(() -> local.resolve("rebind.example", 8081)).isInstanceOf(RefusedDestination.class);
      // without a port (the resolver of a pooled client) only the address is judged
      assertThat(local.resolve("rebind.example")).hasSize(1);
    }
  }

  @Nested
  class Resolve {

    @Test
    void returnsTheCheckedAddressesOfANumericHostWithoutDns() throws UnknownHostException {
      assertThat(local.resolve("0177.1")).containsExactly(InetAddress.getByName("127.0.0.1"));
      assertThat(local.resolve("[::1]")).containsExactly(InetAddress.getByName("::1"));
    }

    @Test
    void refusesEverySpellingOfLoopbackHandedToTheResolver() {
      for (String host : new String[] {"127.1", "0x7f.0x0.0x0.0x1", "0177.0.0.1", "2130706433", "0x7f000001",
          "127.0.0.1.", "[::ffff:127.0.0.1]", "::1"}) {
        assertThatThrownBy(() -> live.resolve(host)).as(host).isInstanceOf(RefusedDestination.class)
            .hasMessageContaining("loopback");
      }
    }

    @Test
    void refusesAtConnectionTimeWhenAnyAnswerIsPrivate() {
      assertThatThrownBy(() -> live.resolve("sneaky.example")).isInstanceOf(RefusedDestination.class)
          .hasMessageContaining("private");
    }

    @Test
    void refusesTheRealLocalhostInLive() {
      CallbackUrlGuard system = new CallbackUrlGuard(false);
      assertThatThrownBy(() -> system.resolve("localhost")).isInstanceOf(RefusedDestination.class)
          .hasMessageContaining("loopback");
    }
  }
}
