package dev.lipa.auth.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.lipa.auth.AuthFixtures;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.common.testsupport.TestHttp;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.test.context.ContextConfiguration;

/**
 * Where a service listens: on loopback unless told otherwise (the gateway is the only front door), and, with
 * {@code lipa.operator.port}, the operator API on a listener of its own and nowhere else.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.operator.token=" + AuthFixtures.OPERATOR_TOKEN,
    "lipa.operator.port=0"})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
class ServiceListenersIntegrationTests {

  @LocalServerPort
  int port;

  @Autowired
  WebServerApplicationContext context;

  @Test
  void bindsToLoopbackByDefault() throws IOException {
    Optional<InetAddress> elsewhere = aNonLoopbackAddressOfThisHost();
    assumeThat(elsewhere).as("this host has a non-loopback IPv4 address to try").isPresent();

    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
    }
    assertThatThrownBy(() -> {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(elsewhere.get(), port), 2000);
      }
    }).as("the service is not reachable on " + elsewhere.get()).isInstanceOf(IOException.class);
  }

  @Test
  void servesTheOperatorApiOnItsOwnListenerOnly() {
    TestHttp main = new TestHttp("http://127.0.0.1:" + port);
    TestHttp operatorListener = new TestHttp("http://127.0.0.1:" + operatorPort());
    String body = "{\"name\":\"Operator listener test\"}";

    TestHttp.Response onMain = main.postJson("/admin/v1/organisations", body, AuthFixtures.operator());
    TestHttp.Response onOperatorListener = operatorListener.postJson("/admin/v1/organisations", body,
        AuthFixtures.operator());
    TestHttp.Response withoutToken = operatorListener.postJson("/admin/v1/organisations", body, Map.of());
    TestHttp.Response merchantPathThere = operatorListener.postJson("/api/v1/get-token", "{}", Map.of());

    assertThat(onMain.status()).isEqualTo(404);
    assertThat(onOperatorListener.status()).as(onOperatorListener.body()).isEqualTo(201);
    assertThat(withoutToken.status()).isEqualTo(401);
    assertThat(merchantPathThere.status()).isEqualTo(404);
  }

  private int operatorPort() {
    TomcatWebServer server = (TomcatWebServer) context.getWebServer();
    for (Connector connector : server.getTomcat().getService().findConnectors()) {
      if (connector.getLocalPort() != port) {
        return connector.getLocalPort();
      }
    }
    throw new AssertionError("no operator listener");
  }

  private static Optional<InetAddress> aNonLoopbackAddressOfThisHost() throws SocketException {
    for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!network.isUp() || network.isLoopback()) {
        continue;
      }
      for (InetAddress address : Collections.list(network.getInetAddresses())) {
        if (address instanceof Inet4Address) {
          return Optional.of(address);
        }
      }
    }
    return Optional.empty();
  }
}
