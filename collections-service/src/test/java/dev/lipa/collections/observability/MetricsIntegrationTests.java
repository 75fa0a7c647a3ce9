package dev.lipa.collections.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * collections-service's {@code /actuator/prometheus} over a real socket: the policy's series exist before any traffic,
 * payments are counted once where their state changes, and no tag carries an id, a raw path or a phone number,
 * whatever the requests put in their paths and query strings.
 */
class MetricsIntegrationTests extends CollectionsIntegrationTest {

  private String page() {
    TestHttp.Response response = http().get("/actuator/prometheus", Map.of());
    assertThat(response.status()).isEqualTo(200);
    return response.body();
  }

  /** The value of the one series of {@code name} whose labels include all of {@code labels} ("a=\"b\""). */
  private static double value(String page, String name, String... labels) {
    Matcher line = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)} (\\S+)$").matcher(page);
    while (line.find()) {
      if (List.of(labels).stream().allMatch(line.group(1)::contains)) {
        return Double.parseDouble(line.group(2));
      }
    }
    throw new AssertionError("no series " + name + " with " + List.of(labels));
  }

  @Test
  void offersThePolicysSeriesBeforeAnyPaymentIsMade() {
    String page = page();

    for (String country : List.of("KE", "TZ", "UG")) {
      for (String outcome : List.of("accepted", "succeeded", "failed")) {
        value(page, "lipa_payments_total", "kind=\"stk_push\"", "country=\"" + country + "\"",
            "outcome=\"" + outcome + "\"");
      }
    }
    value(page, "lipa_payments_total", "kind=\"bank_collection\"", "country=\"KE\"", "outcome=\"accepted\"");
    value(page, "lipa_outbox_pending", "collection=\"stk_pushes\"", "application=\"collections-service\"");
    value(page, "lipa_outbox_oldest_age_seconds", "collection=\"stk_pushes\"");
    value(page, "lipa_dead_letters_waiting", "application=\"collections-service\"");
    value(page, "lipa_stk_unresolved", "application=\"collections-service\"");
    assertThat(page).contains("jvm_memory_used_bytes{", "mongodb_driver_pool_size{", "tomcat_threads_busy_threads{",
        "lipa_payment_outcome_latency_seconds_bucket{");
  }

  @Test
  void countsAPushOnceWhenAcceptedAndOnceWhenItSucceedsAndNotForAReplay() {
    String organisation = newOrganisation();
    String before = page();
    double accepted = value(before, "lipa_payments_total", "kind=\"stk_push\"", "country=\"KE\"",
        "outcome=\"accepted\"");
    double succeeded = value(before, "lipa_payments_total", "kind=\"stk_push\"", "country=\"KE\"",
        "outcome=\"succeeded\"");
    double timed = value(before, "lipa_payment_outcome_latency_seconds_count", "kind=\"stk_push\"",
        "country=\"KE\"", "outcome=\"succeeded\"");
    String reference = "M" + UUID.randomUUID().toString().substring(0, 8);
    String body = """
        {"description":"Order 42","phoneNumber":"254708374149","amount":10,"accountReference":"INV42",
         "referenceId":"%s","callbackUrl":"https://merchant.example/callbacks/stk"}""".formatted(reference);

    create(organisation, body);
    assertThat(http().postJson(NEW, body, as(organisation)).status()).as("the replay").isEqualTo(201);

    await().atMost(Duration.ofSeconds(30)).until(() -> value(page(), "lipa_payments_total", "kind=\"stk_push\"",
        "country=\"KE\"", "outcome=\"succeeded\"") >= succeeded + 1);
    String after = page();
    // other tests of this context push too: at least this one, and the replay added nothing of its own
    assertThat(value(after, "lipa_payments_total", "kind=\"stk_push\"", "country=\"KE\"", "outcome=\"accepted\""))
        .isGreaterThanOrEqualTo(accepted + 1);
    assertThat(value(after, "lipa_payment_outcome_latency_seconds_count", "kind=\"stk_push\"", "country=\"KE\"",
        "outcome=\"succeeded\"")).isGreaterThanOrEqualTo(timed + 1);
  }

  @Test
  void noTagCarriesAnIdARawPathOrAPhoneNumberWhateverTheRequestsHold() {
    String organisation = newOrganisation();
    String probe = UUID.randomUUID().toString();
    String requestId = create(organisation, body("0712345678"));
    for (String path : List.of("/api/sandbox/v1/stk/" + probe, "/api/sandbox/v1/stk/" + requestId,
        "/api/v1/tz/collections/single?requestId=" + probe, "/api/sandbox/v1/stk/all?phoneNumber=254712345678",
        "/api/sandbox/v1/bank/collection/single?requestId=" + probe, "/admin/v1/dead-letters/" + probe,
        "/" + probe, "/api/sandbox/v1/stk/new/254712345678")) {
      assertThat(http().get(path, as(organisation)).status()).as(path).isLessThan(500);
    }
    http().get("/api/v1/tz/collections/single?requestId=" + probe,
        withDevice(as(organisation), "device-" + probe));

    String page = page();

    assertThat(page).doesNotContain(probe, requestId, organisation, "254712345678", "0712345678",
        "device-" + probe);
    // the request timer is by template: the list endpoint's, never a raw path with its query
    assertThat(page).contains("uri=\"/api/sandbox/v1/stk/all\"");
  }

  private static Map<String, String> withDevice(Map<String, String> headers, String device) {
    java.util.HashMap<String, String> all = new java.util.HashMap<>(headers);
    all.put("Device-Id", device);
    return all;
  }
}
