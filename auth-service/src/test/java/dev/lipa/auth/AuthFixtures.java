package dev.lipa.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/** Organisations, keys and tokens made through the real endpoints, for integration tests. */
public final class AuthFixtures {

  public static final String OPERATOR_TOKEN = "integration-tests-operator-token-5f0c9d1e7a2b";
  /** An operator with a token of her own ({@code lipa.operator.tokens.amina}), audited by name. */
  public static final String NAMED_OPERATOR = "amina";
  public static final String NAMED_OPERATOR_TOKEN = "integration-tests-amina-token-8c1e4b7d2f90a3";
  public static final String INTERNAL_TOKEN = "integration-tests-internal-token-2b9d7e11c4a6";

  private final TestHttp http;

  public AuthFixtures(int port) {
    this.http = new TestHttp("http://127.0.0.1:" + port);
  }

  public TestHttp http() {
    return http;
  }

  public static Map<String, String> operator() {
    return Map.of("X-Operator-Token", OPERATOR_TOKEN);
  }

  /** Creates an organisation through the admin API and answers its view ({@code data}). */
  public JsonNode createOrganisation(Map<String, Object> body) {
    TestHttp.Response response = http.postJson("/admin/v1/organisations", TestHttp.json(body), operator());
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return response.json().get("data");
  }

  /** A new organisation's id. */
  public String newOrganisation() {
    return createOrganisation(Map.of("name", "Duka " + UUID.randomUUID().toString().substring(0, 8)))
        .get("organisationId").asString();
  }

  /** A sandbox key, issued as an operator does without naming an environment. */
  public Credentials issueKey(String organisationId) {
    return issued(organisationId, http.send("POST", "/admin/v1/organisations/" + organisationId + "/api-keys", null,
        operator()));
  }

  /** A key of the named environment ({@code sandbox} or {@code live}). */
  public Credentials issueKey(String organisationId, String environment) {
    return issued(organisationId, http.postJson("/admin/v1/organisations/" + organisationId + "/api-keys",
        TestHttp.json(Map.of("environment", environment)), operator()));
  }

  private static Credentials issued(String organisationId, TestHttp.Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    JsonNode data = response.json().get("data");
    return new Credentials(organisationId, data.get("apiKey").asString(), data.get("apiSecret").asString());
  }

  public TestHttp.Response getToken(String apiKey, String apiSecret) {
    return http.postJson("/api/v1/get-token", TestHttp.json(Map.of("apiKey", apiKey, "apiSecret", apiSecret)),
        Map.of());
  }

  /** The {@code data} of a successful get-token. */
  public JsonNode tokens(Credentials credentials) {
    TestHttp.Response response = getToken(credentials.apiKey(), credentials.apiSecret());
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().get("data");
  }

  public TestHttp.Response refresh(String refreshToken) {
    return http.postJson("/api/v1/refresh-token", TestHttp.json(Map.of("refresh_token", refreshToken)), Map.of());
  }

  /** An organisation's API key and its secret. */
  public record Credentials(String organisationId, String apiKey, String apiSecret) {
  }
}
