package dev.lipa.collections.stk.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.testsupport.TestHttp;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/** Endpoint 17: {@code GET /api/v1/tz/collections/single}. */
class TzCollectionIntegrationTests extends CollectionsIntegrationTest {

  private static final String SINGLE = "/api/v1/tz/collections/single";

  static String tanzanianBody(String phone, String channel) {
    return """
        {"description":"Ada ya shule","phoneNumber":"%s","amount":15000,"currencyCode":"TZS","channel":"%s",
         "callbackUrl":"https://merchant.example/tz","referenceId":"tz-%s"}"""
        .formatted(phone, channel, UUID.randomUUID());
  }

  private static Map<String, String> withDevice(String organisationId) {
    Map<String, String> headers = new HashMap<>(as(organisationId));
    headers.put("Device-Id", "device-1");
    return headers;
  }

  @Nested
  class SingleTzCollection {

    @Test
    void returnsTheCallersTzsCollectionAsTheStkRecord() {
      String org = newOrganisation();
      String requestId = create(org, tanzanianBody("+255682345678", "TZ-AIRTEL-C2B"));

      TestHttp.Response response = http().get(SINGLE + "?requestId=" + requestId + "&unknown=1", withDevice(org));

      assertThat(response.status()).isEqualTo(200);
      JsonNode json = response.json();
      assertThat(json.propertyNames()).containsExactly("status", "message", "data");
      assertThat(json.get("status").intValue()).isEqualTo(200);
      JsonNode data = json.get("data");
      assertThat(data.get("uuid").stringValue()).isEqualTo(requestId);
      assertThat(data.get("phoneNumber").stringValue()).isEqualTo("255682345678");
      assertThat(data.get("currencyCode").stringValue()).isEqualTo("TZS");
      assertThat(data.get("channel").stringValue()).isEqualTo("TZ-AIRTEL-C2B");
      assertThat(data.get("amount").toString()).isEqualTo("15000");
      assertThat(data.get("accountReference").isNull()).isTrue();
      assertThat(data.get("organisation").get("uuid").stringValue()).isEqualTo(org);
      JsonNode listed = http().get(ALL, as(org)).json().get("data").get(0);
      assertThat(listed.propertyNames()).containsExactlyElementsOf(data.propertyNames());
    }

    @Test
    void answers404ForAnotherOrganisationsCollection() {
      String requestId = create(newOrganisation(), tanzanianBody("0712345678", "TZ-TIGO-C2B"));

      TestHttp.Response response = http().get(SINGLE + "?requestId=" + requestId, withDevice(newOrganisation()));

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.json().get("status").intValue()).isEqualTo(404);
      assertThat(response.json().get("data").isNull()).isTrue();
    }

    @Test
    void answers404ForAKenyanCollection() {
      String org = newOrganisation();
      String requestId = create(org, body("0712345678"));

      assertThat(http().get(SINGLE + "?requestId=" + requestId, withDevice(org)).status()).isEqualTo(404);
    }

    @Test
    void answers404ForAnUnknownRequestId() {
      TestHttp.Response response = http().get(SINGLE + "?requestId=" + UUID.randomUUID(),
          withDevice(newOrganisation()));

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.json().get("message").stringValue()).startsWith("No TZS collection with requestId");
    }

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("requestId missing", ""), true, "requestId", "requestId is required"),
          Arguments.of(named("requestId blank", "?requestId="), true, "requestId", "requestId is required"),
          Arguments.of(named("requestId not a UUID", "?requestId=abc"), true, "requestId",
              "requestId must be a UUID"),
          Arguments.of(named("Device-Id missing", "?requestId=" + UUID.randomUUID()), false, "Device-Id",
              "Device-Id header is required"));
    }

    @ParameterizedTest(name = "refuses {0} with 400 naming it")
    @MethodSource("refused")
    void refusesMissingOrBadInput(String query, boolean withDeviceId, String field, String message) {
      String org = newOrganisation();
      Map<String, String> headers = withDeviceId ? withDevice(org) : as(org);

      TestHttp.Response response = http().get(SINGLE + query, headers);

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").get(field).get(0).stringValue()).isEqualTo(message);
    }

    @Test
    void namesBothWhenRequestIdAndDeviceIdAreMissing() {
      TestHttp.Response response = http().get(SINGLE, as(newOrganisation()));

      assertThat(response.json().get("errors").propertyNames()).containsExactlyInAnyOrder("requestId", "Device-Id");
    }

    @Test
    void refusesARequestWithoutATokenWith401() {
      Map<String, String> headers = Map.of("Device-Id", "device-1");

      assertThat(http().get(SINGLE + "?requestId=" + UUID.randomUUID(), headers).status()).isEqualTo(401);
    }
  }
}
