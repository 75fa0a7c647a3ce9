package dev.lipa.payouts.edge;

import dev.lipa.common.testsupport.PathRuleChecks;
import dev.lipa.common.testsupport.PathRuleChecks.Protected;
import dev.lipa.payouts.PayoutsIntegrationTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** payouts-service called directly, behind the gateway's back: no spelling of a protected path reaches a handler. */
class PathRulesIntegrationTests extends PayoutsIntegrationTest {

  @Test
  void refusesEveryOtherSpellingOfEveryProtectedPath() {
    Map<String, String> merchant = as(newOrganisation());
    PathRuleChecks.assertEverySpellingRefused("127.0.0.1", port, List.of(
        new Protected("POST", SEND_MONEY, merchant),
        new Protected("GET", SEND_MONEY + "/single", merchant),
        new Protected("GET", TILL + "/single", merchant),
        new Protected("GET", PAYBILL + "/single", merchant),
        new Protected("POST", BALANCE + "/top-up", merchant),
        new Protected("POST", "/api/sandbox/v1/de-allocations/allocate", merchant),
        new Protected("GET", "/admin/v1/anything", Map.of()),
        new Protected("POST", "/internal/v1/anything", Map.of())));
  }
}
