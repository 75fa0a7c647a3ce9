package dev.lipa.auth.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.testsupport.PathRuleChecks;
import dev.lipa.common.testsupport.PathRuleChecks.Protected;
import dev.lipa.common.testsupport.RawHttp;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * auth-service called directly, behind the gateway's back: no spelling of a path reaches a handler, and the operator
 * API wants its token whatever the spelling (the probe that found the bypass issued API keys with
 * {@code POST /%61dmin/...} and {@code POST /admin;x=1/...}).
 */
@AuthServiceIntegrationTest
class PathRulesIntegrationTests {

  private static final Map<String, String> OPERATOR = Map.of("X-Operator-Token", AuthFixtures.OPERATOR_TOKEN);

  @LocalServerPort
  int port;

  @Test
  void refusesEveryOtherSpellingOfEveryProtectedPath() {
    String organisation = UUID.randomUUID().toString();
    PathRuleChecks.assertEverySpellingRefused("127.0.0.1", port, List.of(
        new Protected("POST", "/admin/v1/organisations", OPERATOR),
        new Protected("POST", "/admin/v1/organisations/" + organisation + "/api-keys", OPERATOR),
        new Protected("GET", "/admin/v1/organisations/" + organisation, OPERATOR),
        new Protected("GET", "/admin/v1/signing-keys", OPERATOR),
        new Protected("POST", "/admin/v1/signing-keys/rotate", OPERATOR),
        new Protected("POST", "/internal/v1/anything", Map.of()),
        new Protected("POST", "/api/v1/get-token", Map.of())));
  }

  @Test
  void theProbesOfTheBypassAreRefusedAndCreateNothing() {
    for (String target : new String[] {"/%61dmin/v1/organisations", "/admin;x=1/v1/organisations"}) {
      RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "POST", target, Map.of(), "{\"name\":\"Mallory\"}");
      assertThat(answer.status()).as(target).isEqualTo(400);
      assertThat(answer.body()).as(target).startsWith("{\"status\":400,\"message\":\"Malformed request path: ");
    }
  }

  @Test
  void theOperatorApiWantsItsTokenOnTheOrdinarySpellingToo() {
    RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "POST", "/admin/v1/organisations", Map.of(),
        "{\"name\":\"Mallory\"}");

    assertThat(answer.status()).isEqualTo(401);
  }

  @Test
  void aQueryStringDecodesAsUsual() {
    RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "GET",
        "/admin/v1/organisations/" + UUID.randomUUID() + "?x=%2F..%3B", OPERATOR, null);

    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.body()).doesNotContain("Malformed request path");
  }
}
