package dev.lipa.daraja.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The standalone simulator the launcher will start: on the port it is given, and nothing else. */
class DarajaSimulatorMainIntegrationTests {

  @Test
  void itListensOnThePortItIsGiven() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (DarajaSimulator simulator = DarajaSimulatorMain.start(new String[] {"--port", Integer.toString(port)})) {
      assertThat(simulator.baseUrl().getPort()).isEqualTo(port);
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/oauth/v1/generate?grant_type=client_credentials")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(400); // no credentials: Daraja's refusal, from that port
      assertThat(r.body()).contains("400.008.01");
    }
  }

  @Test
  void anythingButAPortIsAUsageError() {
    for (String[] args : new String[][] {{"--port"}, {"--port", "x"}, {"--port=70000"}, {"--verbose"}}) {
      assertThatThrownBy(() -> DarajaSimulatorMain.start(args)).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
