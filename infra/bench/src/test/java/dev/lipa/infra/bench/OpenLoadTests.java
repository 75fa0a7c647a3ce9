package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The load generator and its HTTP/1.1 connection against a real local HTTP server. */
class OpenLoadTests {

  private HttpServer server;
  private InetSocketAddress address;
  private final AtomicInteger requests = new AtomicInteger();
  private final Set<String> clientPorts = ConcurrentHashMap.newKeySet();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 512);
    server.createContext("/fixed", exchange -> answer(exchange, 201, false));
    server.createContext("/chunked", exchange -> answer(exchange, 201, true));
    server.createContext("/refused", exchange -> answer(exchange, 400, false));
    server.createContext("/slow", exchange -> {
      try {
        Thread.sleep(1500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      answer(exchange, 201, false);
    });
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.start();
    address = new InetSocketAddress("127.0.0.1", server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void answer(HttpExchange exchange, int status, boolean chunked) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    requests.incrementAndGet();
    clientPorts.add(String.valueOf(exchange.getRemoteAddress().getPort()));
    byte[] answer = ("{\"status\":" + status + ",\"data\":{\"requestId\":\"r-" + body.length() + "\"}}")
        .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, chunked ? 0 : answer.length);
    exchange.getResponseBody().write(answer);
    exchange.close();
  }

  @Test
  void readsFixedLengthAndChunkedAnswersOverOneKeptAliveConnection() throws IOException {
    try (Http1Connection connection = new Http1Connection(address, 2000)) {
      for (String path : new String[] {"/fixed", "/chunked", "/fixed", "/chunked"}) {
        Http1Connection.Response response = connection.exchange(request(path, "{\"a\":1}"), 2000);
        assertThat(response.status()).isEqualTo(201);
        assertThat(response.body()).isEqualTo("{\"status\":201,\"data\":{\"requestId\":\"r-7\"}}");
      }
    }
    assertThat(requests).hasValue(4);
    assertThat(clientPorts).hasSize(1);
  }

  @Test
  void reportsATimeoutAndWorksAgainOnANewConnection() throws IOException {
    try (Http1Connection connection = new Http1Connection(address, 2000)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> connection.exchange(request("/slow", "{}"), 300))
          .isInstanceOf(Http1Connection.ResponseTimeoutException.class);
      assertThat(connection.exchange(request("/fixed", "{}"), 2000).status()).isEqualTo(201);
    }
  }

  @Test
  void aStepOffersItsRateAndCountsAnswersByKind() {
    OpenLoad load = new OpenLoad(8, 1000, TimeUnit.SECONDS.toNanos(2));
    AtomicInteger accepted = new AtomicInteger();
    Step step = load.run("test", 0, 200, 1000, target("/fixed", accepted));
    assertThat(step.offered.sum()).isEqualTo(200);
    assertThat(step.accepted.sum()).isEqualTo(200);
    assertThat(accepted).hasValue(200);
    assertThat(step.errorSummary()).isEqualTo("none");
    assertThat(step.latency.getTotalCount()).isEqualTo(200);
    assertThat(clientPorts.size()).isLessThanOrEqualTo(8);

    Step refused = load.run("refused", 1, 100, 500, target("/refused", accepted));
    assertThat(refused.accepted.sum()).isZero();
    assertThat(refused.errorSummary()).isEqualTo("HTTP 400 50");
  }

  @Test
  void requestsBeyondTheClientsLimitOrPastTheTimeoutAreErrorsNotWaits() {
    // one connection and a limit of 3 open or queued: a slow server makes the rest errors of the step
    OpenLoad load = new OpenLoad(1, 3, TimeUnit.MILLISECONDS.toNanos(1000));
    Step step = load.run("slow", 0, 20, 500, target("/slow", new AtomicInteger()));
    assertThat(step.offered.sum()).isEqualTo(10);
    assertThat(step.accepted.sum()).isZero();
    assertThat(step.errors.get("client: in-flight limit").sum()).isEqualTo(7);
    // the first is sent and times out; the ones queued behind it time out too, and the last is already a timeout late
    // when its turn comes, so it is not sent at all
    assertThat(step.errors.get("timeout").sum() + step.errors.get("timeout (queued in the client)").sum())
        .isEqualTo(3);
    assertThat(step.errors.get("timeout (queued in the client)").sum()).isPositive();
    assertThat(step.latency.getTotalCount()).isZero();
    assertThat(step.failedLatency.getTotalCount()).isEqualTo(3);
  }

  private OpenLoad.Target target(String path, AtomicInteger accepted) {
    return new OpenLoad.Target() {
      @Override
      public InetSocketAddress address() {
        return address;
      }

      @Override
      public byte[] request(long sequence) {
        return OpenLoadTests.request(path, "{\"n\":" + sequence + "}");
      }

      @Override
      public void accepted(String responseBody, int step) {
        accepted.incrementAndGet();
      }
    };
  }

  private static byte[] request(String path, String body) {
    return ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
        + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1);
  }
}
