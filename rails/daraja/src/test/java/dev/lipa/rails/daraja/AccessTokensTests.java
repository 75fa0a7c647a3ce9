package dev.lipa.rails.daraja;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AccessTokensTests {

  private static JsonNode expiresIn(String example) {
    return JsonMapper.builder().build().readTree(DocExamples.read(example)).path("expires_in");
  }

  @Test
  void expiresInIsReadAsTheStringDarajaSendsAndAsTheNumberThePortalShows() {
    assertThat(AccessTokens.expiresIn(expiresIn("oauth-token-string-expiry"))).isEqualTo(3599);
    assertThat(AccessTokens.expiresIn(expiresIn("oauth-token"))).isEqualTo(3599);
  }

  @Test
  void anExpiryThatIsNotAWholeNumberOfSecondsIsUnusable() {
    JsonMapper json = JsonMapper.builder().build();
    for (String bad : new String[] {"\"\"", "\"-1\"", "\"1e3\"",
        "\"3599 \"x", "1.5", "null", "{}", "\"99999999999\""}) {
      JsonNode node;
      try {
        node = json.readTree("{\"e\":" + bad + "}").path("e");
      } catch (RuntimeException notJson) {
        continue;
      }
      assertThat(AccessTokens.expiresIn(node)).as(bad).isLessThanOrEqualTo(0);
    }
  }
}
