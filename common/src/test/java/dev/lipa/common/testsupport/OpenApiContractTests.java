package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contract check refuses answers that break the OpenAPI documents, and only those. */
class OpenApiContractTests {

  private static final Map<String, List<String>> JSON = Map.of("Content-Type", List.of("application/json"));
  private static final OpenApiContract CONTRACT = OpenApiContract.shared();

  @Test
  void anAnswerInTheDocumentedShapePasses() {
    String body = """
        {"status":201,"message":"STK push accepted for processing","data":{"requestId":\
        "0b6f2c1e-3d4a-4f5b-9c8d-7e6f5a4b3c2d","phoneNumber":"254708374149","requestedAmount":150}}""";

    assertThat(CONTRACT.problems("POST", "/api/sandbox/v1/stk/new", 201, JSON, body)).isEmpty();
  }

  @Test
  void aBodyOfTheWrongShapeFails() {
    String body = """
        {"status":201,"message":"accepted","data":{"requestId":42,"phoneNumber":"254708374149"}}""";

    assertThat(CONTRACT.problems("POST", "/api/sandbox/v1/stk/new", 201, JSON, body))
        .anySatisfy(p -> assertThat(p).contains("requestId"));
    assertThatThrownBy(() -> CONTRACT.check("POST", "/api/sandbox/v1/stk/new", 201, JSON, body))
        .isInstanceOf(AssertionError.class).hasMessageContaining("docs/openapi.yaml");
  }

  @Test
  void aFieldTheDocumentDoesNotNameFails() {
    // every schema is read as closed: a field added to an answer without documenting it breaks the contract
    String body = "{\"status\":201,\"message\":\"accepted\",\"data\":{\"requestId\":"
        + "\"0b6f2c1e-3d4a-4f5b-9c8d-7e6f5a4b3c2d\",\"phoneNumber\":\"254708374149\",\"requestedAmount\":150,"
        + "\"secretField\":\"x\"}}";

    assertThat(CONTRACT.problems("POST", "/api/sandbox/v1/stk/new", 201, JSON, body))
        .anySatisfy(p -> assertThat(p).contains("secretField"));
  }

  @Test
  void anEnvelopeWithoutItsStatusFails() {
    assertThat(CONTRACT.problems("GET", "/api/sandbox/v1/stk/all", 200, JSON, """
        {"message":"OK","data":[]}""")).isNotEmpty();
  }

  @Test
  void anUndocumentedStatusFails() {
    assertThat(CONTRACT.problems("GET", "/api/sandbox/v1/stk/all", 418, JSON, """
        {"status":418,"message":"teapot","data":null}""")).anySatisfy(p -> assertThat(p).contains("418"));
  }

  @Test
  void anotherContentTypeThanTheDocumentedOneFails() {
    assertThat(CONTRACT.problems("GET", "/api/sandbox/v1/stk/all", 200,
        Map.of("Content-Type", List.of("text/html")), "<html></html>")).isNotEmpty();
  }

  @Test
  void aPathTheDocumentsDoNotHaveIsNotChecked() {
    assertThat(CONTRACT.problems("GET", "/internal/v1/revocations", 200, JSON, "[1,2]")).isEmpty();
    assertThat(CONTRACT.problems("GET", "/api/sandbox/v1/nothing-here", 404, JSON, "{}")).isEmpty();
  }

  @Test
  void anotherCaseOfADocumentedPathIsNotThatPath() {
    // the platform answers 404 on /api/SANDBOX/...: no contract to meet there, whatever the validator's matching
    assertThat(CONTRACT.problems("POST", "/api/SANDBOX/v1/stk/new", 404, JSON,
        "{\"status\":404,\"message\":\"Not found\",\"data\":null}")).isEmpty();
    assertThat(CONTRACT.problems("POST", "/api/sandbox/v1/stk/new", 404, JSON,
        "{\"status\":404,\"message\":\"STK push not found\",\"data\":null}")).isNotEmpty();
    // the no-route answer (this path is not served on this listener) has no operation to meet
    assertThat(CONTRACT.problems("POST", "/api/v1/get-token", 404, JSON,
        "{\"status\":404,\"message\":\"Not found\",\"data\":null}")).isEmpty();
    assertThat(OpenApiContract.templatePattern("/admin/v1/dead-letters/{service}/{deadLetterId}")
        .matcher("/admin/v1/dead-letters/payouts-service/abc").matches()).isTrue();
    assertThat(OpenApiContract.templatePattern("/admin/v1/dead-letters/{service}")
        .matcher("/admin/v1/dead-letters/payouts-service/abc").matches()).isFalse();
  }

  @Test
  void operatorCallsAreCheckedAgainstTheOperatorDocument() {
    String organisation = "/admin/v1/organisations/3f0c2a9e-5b1d-4c7a-8e2f-1a2b3c4d5e6f";

    assertThat(CONTRACT.problems("GET", organisation, 200, JSON, "{\"name\":\"not an envelope\"}")).isNotEmpty();
    assertThat(CONTRACT.problems("GET", organisation, 404, JSON, """
        {"status":404,"message":"organisation not found","data":null}""")).isEmpty();
    assertThatThrownBy(() -> CONTRACT.check("GET", organisation, 200, JSON, "[]"))
        .hasMessageContaining("docs/operator-openapi.yaml");
  }

  @Test
  void theMerchantDocumentHasNoOperatorPathAndTheOperatorDocumentNoMerchantPath() throws Exception {
    String merchant = java.nio.file.Files.readString(OpenApiContract.repositoryRoot().resolve("docs/openapi.yaml"));
    String operator = java.nio.file.Files.readString(
        OpenApiContract.repositoryRoot().resolve("docs/operator-openapi.yaml"));

    assertThat(merchant).doesNotContain("\n  /admin/", "X-Operator-Token").contains("\n  /api/sandbox/v1/stk/new:");
    assertThat(operator).doesNotContain("\n  /api/").contains("\n  /admin/v1/organisations:");
  }

  @Test
  void aServicesOwnDeadLetterPathIsCheckedAsTheGatewaysRoute() {
    assertThat(OpenApiContract.serviceDeadLetterPath("/admin/v1/dead-letters/abc/replay"))
        .isEqualTo("/admin/v1/dead-letters/collections-service/abc/replay");
    assertThat(OpenApiContract.serviceDeadLetterPath("/admin/v1/dead-letters"))
        .isEqualTo("/admin/v1/dead-letters/collections-service");
    assertThat(OpenApiContract.serviceDeadLetterPath("/admin/v1/dead-letters/payouts-service/abc"))
        .isEqualTo("/admin/v1/dead-letters/payouts-service/abc");
  }

  @Test
  void aLivePathIsHeldToItsDocumentedSandboxTwin() {
    assertThat(CONTRACT.documentedTwin("/api/v1/stk/new")).isEqualTo("/api/sandbox/v1/stk/new");
    assertThat(CONTRACT.documentedTwin("/api/v1/get-token")).isEqualTo("/api/v1/get-token");
    assertThat(CONTRACT.documentedTwin("/admin/live/v1/organisations")).isEqualTo("/admin/v1/organisations");
    assertThat(CONTRACT.documentedTwin("/api/v1/nothing/here")).isEqualTo("/api/v1/nothing/here");
    // a live answer of the wrong shape fails as its sandbox twin's would
    assertThat(CONTRACT.problems("POST", "/api/v1/stk/new", 201, JSON, """
        {"status":201,"message":"accepted","data":{"requestId":42,"phoneNumber":"254708374149"}}"""))
        .anySatisfy(p -> assertThat(p).contains("requestId"));
  }
}
