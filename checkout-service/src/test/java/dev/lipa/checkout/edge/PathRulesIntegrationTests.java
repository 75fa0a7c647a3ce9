package dev.lipa.checkout.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.checkout.CheckoutIntegrationTest;
import dev.lipa.common.testsupport.PathRuleChecks;
import dev.lipa.common.testsupport.PathRuleChecks.Protected;
import dev.lipa.common.testsupport.RawHttp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * checkout-service called directly, behind the gateway's back: no spelling of the session API (protected by the
 * service's own checkout-shaped token filter) or of the hosted page reaches a handler.
 */
class PathRulesIntegrationTests extends CheckoutIntegrationTest {

  @Test
  void refusesEveryOtherSpellingOfEveryProtectedPath() {
    Map<String, String> merchant = as(newOrganisation());
    PathRuleChecks.assertEverySpellingRefused("127.0.0.1", port, List.of(
        new Protected("POST", SESSIONS, merchant),
        new Protected("GET", SESSIONS + "/0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10", merchant),
        new Protected("GET", "/checkout/cs_doesnotexist", Map.of()),
        new Protected("GET", "/admin/v1/anything", Map.of()),
        new Protected("POST", "/internal/v1/anything", Map.of())));
  }

  @Test
  void aSpellingThatAvoidedTheSessionApiPrefixStillMeetsItsTokenCheck() {
    // decided on the routed path: even if the path rules were not in front, this would be a 401, not a session
    RawHttp.Answer ordinary = RawHttp.send("127.0.0.1", port, "POST", SESSIONS, Map.of(), cardAndMpesa());

    assertThat(ordinary.status()).isEqualTo(401);
    assertThat(JsonMapper.builder().build().readTree(ordinary.body()).path("message").asString())
        .isEqualTo("invalid authentication token");
  }
}
