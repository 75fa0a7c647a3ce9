package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.PathSpellings;
import dev.lipa.common.testsupport.RawHttp;
import dev.lipa.common.testsupport.TestHttp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;

/** The gateway serves the public contracts and never the operator API's document, however its path is spelled. */
class ContractDocumentsIntegrationTests extends GatewayIntegrationTest {

  private static final String OPERATOR_DOCUMENT = "/docs/operator-openapi.yaml";

  @Test
  void servesThePublicOpenApiDocumentWithoutTheOperatorApi() {
    TestHttp.Response response = http().get("/docs/openapi.yaml", Map.of());

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/yaml"));
    assertThat(response.body()).contains("title: Lipa payments API", "/api/sandbox/v1/stk/new",
        "/api/sandbox/v1/send-money");
    assertThat(response.body()).doesNotContain("/admin/", "X-Operator-Token");
  }

  @Test
  void neverServesTheOperatorDocument() {
    TestHttp.Response response = http().get(OPERATOR_DOCUMENT, Map.of());

    assertThat(response.status()).isEqualTo(404);
    assertThat(response.body()).doesNotContain("Lipa operator API");
  }

  @Test
  void neverServesTheOperatorDocumentUnderAnotherSpellingOfItsPath() {
    List<String> spellings = new ArrayList<>(PathSpellings.of(OPERATOR_DOCUMENT).values());
    spellings.addAll(List.of("/docs/OPERATOR-OPENAPI.YAML", "/docs/operator-openapi.yml", "/docs/operator-openapi.json",
        "/docs/operator-openapi.yaml/", "/docs/openapi.yaml/../operator-openapi.yaml",
        "/docs/%6fperator-openapi.yaml", "/docs/operator%2Dopenapi.yaml", "/static/docs/operator-openapi.yaml",
        "/docs/operator-openapi.yaml?download=1", "/docs/operator-openapi.yaml%00", "/docs/..%2Foperator-openapi.yaml",
        "/static/operator-openapi.yaml", "/operator-openapi.yaml", "/docs/", "/docs"));

    for (String spelling : spellings) {
      RawHttp.Answer answer = RawHttp.send("localhost", port, "GET", spelling, Map.of(), null);

      assertThat(answer.status()).as("GET %s", spelling).isNotEqualTo(200).isBetween(400, 499);
      assertThat(answer.body()).as("GET %s", spelling).doesNotContain("Lipa operator API", "X-Operator-Token",
          "revoke-tokens");
    }
  }

  @Test
  void theOperatorDocumentIsNotInTheGatewaysClasspath() {
    assertThat(new ClassPathResource("static/docs/operator-openapi.yaml").exists()).isFalse();
    assertThat(new ClassPathResource("static/docs/openapi.yaml").exists()).isTrue();
  }
}
