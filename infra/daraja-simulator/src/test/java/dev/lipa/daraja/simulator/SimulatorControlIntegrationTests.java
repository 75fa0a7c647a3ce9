package dev.lipa.daraja.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The control API a running simulator is driven through from another process (a demo, the system test). */
class SimulatorControlIntegrationTests {

  private static DarajaSimulator simulator;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    simulator = DarajaSimulator.start();
  }

  @AfterAll
  static void stop() {
    simulator.close();
  }

  @BeforeEach
  void reset() {
    simulator.reset();
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void setsTheFaultModesItNamesAndLeavesTheOthers() throws Exception {
    HttpResponse<String> answer = post("/simulator/v1/faults",
        "{\"callbacks\":\"never\",\"answerAfterMillis\":1500,\"stkQueriesBeingProcessed\":2}");

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(simulator.faults().callbackMode).isEqualTo(Faults.CallbackMode.NEVER);
    assertThat(simulator.faults().answerDelay).isEqualTo(Duration.ofMillis(1500));
    assertThat(simulator.faults().queriesBeingProcessed.get()).isEqualTo(2);
    assertThat(simulator.faults().spikeArrest).isFalse();
    assertThat(answer.body()).contains("\"callbacks\":\"NEVER\"", "\"answerAfterMillis\":1500");
  }

  @Test
  void resetClearsTheFaults() throws Exception {
    post("/simulator/v1/faults", "{\"spikeArrest\":true,\"callbacks\":\"TWICE\"}");

    assertThat(post("/simulator/v1/reset", "").statusCode()).isEqualTo(200);

    assertThat(simulator.faults().spikeArrest).isFalse();
    assertThat(simulator.faults().callbackMode).isEqualTo(Faults.CallbackMode.NORMAL);
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"callbacks\":\"SOMETIMES\"}", "{\"answerAfterMillis\":-1}",
      "{\"answerAfterMillis\":1e99}", "{\"lateByMillis\":\"10\"}", "{\"stkQueriesBeingProcessed\":100000}", "[]",
      "not json"})
  void refusesWhatItCannotSetAndChangesNothing(String body) throws Exception {
    HttpResponse<String> answer = post("/simulator/v1/faults", body);

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(simulator.faults().callbackMode).isEqualTo(Faults.CallbackMode.NORMAL);
    assertThat(simulator.faults().answerDelay).isEqualTo(Duration.ZERO);
  }

  @Test
  void scriptsACustomersResult() throws Exception {
    assertThat(post("/simulator/v1/scripts", "{\"phone\":\"254700001032\",\"resultCode\":\"1032\"}").statusCode())
        .isEqualTo(200);
    assertThat(post("/simulator/v1/scripts", "{\"phone\":\"254700001032\"}").statusCode()).isEqualTo(400);
    assertThat(post("/simulator/v1/scripts", "{\"resultCode\":\"1\"}").statusCode()).isEqualTo(400);
  }

  @Test
  void countsTheRequestsEachApiPathReceived() throws Exception {
    HTTP.send(HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/mpesa/b2c/v3/paymentrequest"))
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

    HttpResponse<String> counts = get("/simulator/v1/received");

    assertThat(counts.statusCode()).isEqualTo(200);
    assertThat(counts.body()).contains("\"/mpesa/b2c/v3/paymentrequest\":1").doesNotContain("/simulator/");
  }

  @Test
  void countsAsAcceptedOnlyWhatItAnswered2xx() throws Exception {
    assertThat(emptyB2c("not-a-token").statusCode()).isEqualTo(401);
    assertThat(oauth().statusCode()).isEqualTo(200);

    String counts = get("/simulator/v1/received").body();

    assertThat(counts).contains("\"received\":{", "\"accepted\":{\"/oauth/v1/generate\":1}")
        .contains("\"/mpesa/b2c/v3/paymentrequest\":1");
  }

  @Test
  void clearingTheFaultsLeavesTheTokensValid() throws Exception {
    String token = DarajaSimulator.JSON.readTree(oauth().body()).path("access_token").asString();
    // ten minutes: Daraja's answers wait that long, the control API's own never do (post() gives up after 20 s)
    assertThat(post("/simulator/v1/faults", "{\"callbacks\":\"NEVER\",\"answerAfterMillis\":600000}").statusCode())
        .isEqualTo(200);

    assertThat(post("/simulator/v1/faults/clear", "").statusCode()).isEqualTo(200);

    assertThat(simulator.faults().callbackMode).isEqualTo(Faults.CallbackMode.NORMAL);
    assertThat(simulator.faults().answerDelay).isEqualTo(Duration.ZERO);
    assertThat(emptyB2c(token).statusCode()).as("the token still passes; the empty body does not").isEqualTo(400);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/simulator/v1/faults/clear/", "/simulator/v1/faults%2Fclear", "/simulator/v1/faults/clear;x=1",
      "//simulator/v1/faults/clear", "/simulator/v1/%66aults/clear", "/simulator/v1/faults/../faults/clear",
      "/SIMULATOR/v1/faults/clear"})
  void clearsTheFaultsOnlyAtItsOwnSpelling(String path) throws Exception {
    post("/simulator/v1/faults", "{\"callbacks\":\"NEVER\"}");

    assertThat(post(path, "").statusCode()).isEqualTo(404);

    assertThat(simulator.faults().callbackMode).isEqualTo(Faults.CallbackMode.NEVER);
  }

  /** An empty B2C request with a bearer token: 401 when the token is refused, 400 (the body) when it passes. */
  private static HttpResponse<String> emptyB2c(String token) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/mpesa/b2c/v3/paymentrequest"))
        .POST(HttpRequest.BodyPublishers.ofString("{}")).header("Authorization", "Bearer " + token).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> oauth() throws Exception {
    String basic = Base64.getEncoder().encodeToString((DarajaSimulator.CONSUMER_KEY + ":"
        + DarajaSimulator.CONSUMER_SECRET).getBytes(StandardCharsets.UTF_8));
    return HTTP.send(HttpRequest.newBuilder(URI.create(simulator.baseUrl()
        + "/oauth/v1/generate?grant_type=client_credentials")).header("Authorization", "Basic " + basic).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void answersOnlyPostAndKnownPaths() throws Exception {
    HttpResponse<String> get = get("/simulator/v1/faults");

    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(post("/simulator/v1/other", "{}").statusCode()).isEqualTo(404);
  }
}
