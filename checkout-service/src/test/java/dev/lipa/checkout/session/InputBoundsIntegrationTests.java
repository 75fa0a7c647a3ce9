package dev.lipa.checkout.session;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.lipa.common.testsupport.HostileAmounts.assertRefusedNaming;
import static org.junit.jupiter.api.Named.named;

import com.mongodb.client.model.Filters;
import dev.lipa.checkout.CheckoutIntegrationTest;
import dev.lipa.common.testsupport.HostileAmounts;
import dev.lipa.common.testsupport.TestHttp;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A checkout session's amount is bounded before any work (issue 12): the probe's amounts are 400s in the checkout
 * error body naming {@code amount}, with no session stored; the fingerprint of an Idempotency-Key never expands a
 * number. The hosted page's card and M-Pesa calls carry no amount (the session's is used).
 */
class InputBoundsIntegrationTests extends CheckoutIntegrationTest {

  /** The probe's amounts, and one above a session's maximum. */
  static Stream<Arguments> hostileAmounts() {
    return Stream.concat(HostileAmounts.all(), Stream.of(Arguments.of(named("above the session maximum",
        "1000000000000"))));
  }

  private long sessionsOf(String org) {
    return database.getCollection(CheckoutSessionStore.COLLECTION).countDocuments(Filters.eq("organisationId", org));
  }

  @ParameterizedTest(name = "refuses {0} naming amount")
  @MethodSource("hostileAmounts")
  void refusesAHostileAmountWith400NamingItAndStoresNoSession(String amount) {
    String org = newOrganisation();
    Map<String, String> headers = new HashMap<>(as(org));
    headers.put("Idempotency-Key", "bounds-" + UUID.randomUUID());

    assertRefusedNaming(http().postJson(SESSIONS, body("KES", amount, "[\"CARD\"]"), headers), "amount");
    assertThat(sessionsOf(org)).isZero();
  }

  @Test
  void acceptsAHugeNumberInAnUnknownFieldAndReplaysItsRetry() {
    String org = newOrganisation();
    Map<String, String> headers = new HashMap<>(as(org));
    headers.put("Idempotency-Key", "bounds-" + UUID.randomUUID());
    String body = body("KES", "1500", "[\"CARD\"]").replace("{", "{\"x\":1e200000000,");

    TestHttp.Response first = http().postJson(SESSIONS, body, headers);
    TestHttp.Response retry = http().postJson(SESSIONS, body.replace("1e200000000", "1.0e200000000"), headers);

    assertThat(first.status()).as(first.body()).isEqualTo(201);
    assertThat(retry.status()).as(retry.body()).isEqualTo(201);
    assertThat(retry.json().path("id")).isEqualTo(first.json().path("id"));
    assertThat(sessionsOf(org)).isOne();
  }

  @Test
  void refusesABodyPastTheJsonLimitsNamingTheBody() {
    TestHttp.Response response = http().postJson(SESSIONS, body("KES", "1".repeat(65), "[\"CARD\"]"),
        as(newOrganisation()));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.json().path("errors").propertyNames()).containsExactly("body");
  }
}
