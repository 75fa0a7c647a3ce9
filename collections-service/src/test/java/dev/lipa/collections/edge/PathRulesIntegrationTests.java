package dev.lipa.collections.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.testsupport.PathRuleChecks;
import dev.lipa.common.testsupport.PathRuleChecks.Protected;
import dev.lipa.common.testsupport.RawHttp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * collections-service called directly, behind the gateway's back: no spelling of a merchant, internal or operator
 * path reaches a handler, with or without credentials.
 */
class PathRulesIntegrationTests extends CollectionsIntegrationTest {

  @Test
  void refusesEveryOtherSpellingOfEveryProtectedPath() {
    Map<String, String> merchant = as(newOrganisation());
    PathRuleChecks.assertEverySpellingRefused("127.0.0.1", port, List.of(
        new Protected("POST", NEW, merchant),
        new Protected("GET", ALL, merchant),
        new Protected("GET", "/api/sandbox/v1/stk/single", merchant),
        new Protected("POST", "/internal/v1/stk-pushes", Map.of("X-Internal-Token", "internal-test-token")),
        new Protected("GET", "/admin/v1/anything", Map.of()),
        new Protected("POST", "/api/v1/banks/sandbox-bank/notifications", Map.of())));
  }

  @Test
  void theInternalPathWantsItsTokenWhateverTheCaller() {
    // a merchant's valid bearer token is not an internal credential
    RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "POST", "/internal/v1/stk-pushes",
        as(newOrganisation()), "{\"organisationId\":\"" + newOrganisation() + "\"}");

    assertThat(answer.status()).isEqualTo(401);
    assertThat(answer.body()).isEqualTo("{\"status\":401,\"message\":\"invalid internal token\",\"data\":null}");
  }

  @Test
  void theOperatorPathIsClosedOnAServiceWithoutAnOperatorToken() {
    RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "GET", "/admin/v1/dead-letters", Map.of(), null);

    assertThat(answer.status()).isIn(401, 503);
  }
}
