package dev.lipa.payouts.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.payouts.PayoutsIntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * payouts-service's {@code /actuator/prometheus} over a real socket: every payout kind's series from the start, a
 * payout counted once accepted and once failed or succeeded, and no id or phone number in any tag.
 */
class MetricsIntegrationTests extends PayoutsIntegrationTest {

  private String page() {
    TestHttp.Response response = http().get("/actuator/prometheus", Map.of());
    assertThat(response.status()).isEqualTo(200);
    return response.body();
  }

  private static double value(String page, String... labels) {
    Matcher line = Pattern.compile("(?m)^lipa_payments_total\\{([^}]*)} (\\S+)$").matcher(page);
    while (line.find()) {
      if (List.of(labels).stream().allMatch(label -> line.group(1).contains(label))) {
        return Double.parseDouble(line.group(2));
      }
    }
    throw new AssertionError("no series lipa_payments_total with " + List.of(labels));
  }

  @Test
  void offersEveryKindAndCountryFromTheStart() {
    String page = page();

    for (String kind : List.of("send_money", "till", "paybill")) {
      for (String country : List.of("KE", "TZ", "UG")) {
        value(page, "kind=\"" + kind + "\"", "country=\"" + country + "\"", "outcome=\"accepted\"");
      }
    }
    assertThat(page).contains("lipa_outbox_pending{", "lipa_dead_letters_waiting{");
  }

  @Test
  void countsAFailedSendMoneyOnceWhenAcceptedAndOnceWhenItFails() {
    String organisation = newOrganisation();
    String before = page();
    double accepted = value(before, "kind=\"send_money\"", "country=\"KE\"", "outcome=\"accepted\"");
    double failed = value(before, "kind=\"send_money\"", "country=\"KE\"", "outcome=\"failed\"");

    // the sandbox's "insufficient funds at the provider"
    String requestId = create(SEND_MONEY, organisation, kenyan("254700000001", 100));

    await(() -> value(page(), "kind=\"send_money\"", "country=\"KE\"", "outcome=\"failed\"") >= failed + 1);
    String after = page();
    assertThat(value(after, "kind=\"send_money\"", "country=\"KE\"", "outcome=\"accepted\""))
        .isGreaterThanOrEqualTo(accepted + 1);
    assertThat(after).doesNotContain(requestId, organisation, "254700000001");
  }

  @Test
  void noTagCarriesAnIdOrAPhoneNumberOfTheRequests() {
    String organisation = newOrganisation();
    String probe = UUID.randomUUID().toString();
    for (String path : List.of("/api/sandbox/v1/paybill/status?requestId=" + probe,
        "/api/sandbox/v1/send-money/all?companyId=" + probe, "/api/sandbox/v1/till/" + probe,
        "/api/sandbox/v1/send-money/254712345678")) {
      assertThat(http().get(path, as(organisation)).status()).as(path).isLessThan(500);
    }

    assertThat(page()).doesNotContain(probe, organisation, "254712345678");
  }
}
