package dev.lipa.payouts.deallocation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.common.testsupport.TopicRecorder;
import java.math.BigDecimal;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class DeallocationIntegrationTests extends PayoutsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String BASE = "/api/sandbox/v1/de-allocations";

  private static String body(String subAccountId, int amount) {
    return "{\"subAccountId\":\"%s\",\"amount\":%d,\"currency\":\"KSH\"}".formatted(subAccountId, amount);
  }

  @Nested
  class AllocateAndDeallocate {

    @Test
    void movesFundsToASubAccountAndBackAndListsTheDeallocationForBoth() {
      String parent = newOrganisation();
      String child = newOrganisation();
      subAccount(child, parent);

      assertThat(http().postJson(BASE + "/allocate", body(child, 300), as(parent)).status()).isEqualTo(201);
      TestHttp.Response back = http().postJson(BASE, body(child, 1200), as(child));
      assertThat(back.status()).isEqualTo(201);
      JsonNode item = back.json().get("data");
      assertThat(item.propertyNames()).containsExactly("status", "requestId", "amount");
      assertThat(item.get("status").stringValue()).isEqualTo("SUCCESS");

      assertThat(balance(parent, "KSH")).containsExactly(new BigDecimal("1900"), BigDecimal.ZERO);
      assertThat(balance(child, "KSH")).containsExactly(new BigDecimal("100"), BigDecimal.ZERO);
      String requestId = item.get("requestId").stringValue();
      assertThat(http().get(BASE + "/org/all", as(child)).json().get("data").toString())
          .isEqualTo("[{\"status\":\"SUCCESS\",\"requestId\":\"" + requestId + "\",\"amount\":1200}]");
      assertThat(http().get(BASE + "/org/all/admins?parentOrganisationId=" + parent, as(parent)).json()
          .get("data").get(0).get("requestId").stringValue()).isEqualTo(requestId);
      assertThat(http().get(BASE + "/org/all", as(parent)).json().get("data")).isEmpty();
      await(() -> !TopicRecorder.records(Topics.PAYOUTS, requestId).isEmpty());
      JsonNode event = JSON.readTree(TopicRecorder.records(Topics.PAYOUTS, requestId).getFirst().value());
      assertThat(event.get("type").stringValue()).isEqualTo("deallocation.succeeded");
      assertThat(event.get("organisationId").stringValue()).isEqualTo(child);
      assertThat(event.get("data").get("parentOrganisationId").stringValue()).isEqualTo(parent);
    }

    @Test
    void aDeallocationTheSubAccountCannotCoverFailsAndMovesNothing() {
      String parent = newOrganisation();
      String child = newOrganisation();
      subAccount(child, parent);

      TestHttp.Response response = http().postJson(BASE, body(child, 1001), as(parent));

      assertThat(response.status()).isEqualTo(422);
      assertThat(response.json().get("data").get("status").stringValue()).isEqualTo("FAILED");
      assertThat(balance(child, "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
      assertThat(balance(parent, "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
    }

    @Test
    void refusesOrganisationsThatAreNotTheParentOrTheSubAccountAlike() {
      String parent = newOrganisation();
      String child = newOrganisation();
      String stranger = newOrganisation();
      subAccount(child, parent);

      assertThat(http().postJson(BASE + "/allocate", body(child, 1), as(stranger)).status()).isEqualTo(404);
      assertThat(http().postJson(BASE + "/allocate", body(parent, 1), as(child)).status()).isEqualTo(404);
      assertThat(http().postJson(BASE, body(child, 1), as(stranger)).status()).isEqualTo(404);
      assertThat(http().postJson(BASE, body(newOrganisation(), 1), as(stranger)).status()).isEqualTo(404);
      assertThat(http().get(BASE + "/org/all/admins?parentOrganisationId=" + parent, as(child)).status())
          .isEqualTo(404);
      assertThat(http().get(BASE + "/org/all/admins?parentOrganisationId=" + parent, as(stranger)).status())
          .isEqualTo(404);
    }
  }
}
