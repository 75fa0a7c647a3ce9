package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class StkPushIntegrationTests extends CollectionsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String MICROSECOND_TIME = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}";

  private MongoCollection<Document> pushes() {
    return database.getCollection(StkPushStore.COLLECTION);
  }

  private long storedFor(String organisationId) {
    return pushes().countDocuments(Filters.eq("organisationId", organisationId));
  }

  @Nested
  class CreateStkPush {

    @Test
    void acceptsAValidRequestWith201AndStoresItPendingWithItsAcceptedEvent() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(NEW, """
          {"description":"Order 42","phoneNumber":"+254712345678","amount":10.0,"accountReference":"INV42",
           "callbackUrl":"https://merchant.example/cb","referenceId":"order-42","unknown":"ignored"}""", as(org));

      assertThat(response.status()).isEqualTo(201);
      JsonNode json = response.json();
      String requestId = json.get("data").get("requestId").stringValue();
      assertThat(json.propertyNames()).containsExactly("status", "message", "data");
      assertThat(json.get("status").intValue()).isEqualTo(201);
      assertThat(json.get("message").stringValue()).isEqualTo("STK push accepted for processing");
      assertThat(json.get("data").propertyNames()).containsExactly("requestId", "phoneNumber", "requestedAmount");
      assertThat(requestId).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
      assertThat(json.get("data").get("phoneNumber").stringValue()).isEqualTo("254712345678");
      assertThat(json.get("data").get("requestedAmount").isNumber()).isTrue();
      assertThat(json.get("data").get("requestedAmount").toString()).isEqualTo("10");

      Document stored = pushes().find(Filters.eq("_id", requestId)).first();
      assertThat(stored).isNotNull();
      assertThat(stored.getString("status")).isEqualTo("PENDING");
      assertThat(stored.getString("organisationId")).isEqualTo(org);
      assertThat(stored.getString("referenceId")).isEqualTo("order-42");
      assertThat(stored.get("amount")).isEqualTo(new Decimal128(10));
      assertThat(stored.get("id", Number.class).longValue()).isPositive().isLessThan(1L << 53);
      assertThat(stored.getDate("createdAt")).isEqualTo(stored.getDate("updatedAt"));
      assertThat(stored).doesNotContainKey("unknown");
    }

    @Test
    void namesEveryFailingFieldAtOnceAndStoresNothing() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(NEW, """
          {"description":"far too long text","phoneNumber":"+255712345678","amount":"10","accountReference":"A-1",
           "callbackUrl":"ftp://merchant.example","currencyCode":"UGX","referenceId":7}""", as(org));

      assertThat(response.status()).isEqualTo(400);
      JsonNode json = response.json();
      assertThat(json.get("status").intValue()).isEqualTo(400);
      assertThat(json.get("message").stringValue()).isEqualTo("Validation failed");
      assertThat(json.get("data").isNull()).isTrue();
      assertThat(json.get("errors").propertyNames()).containsExactlyInAnyOrder("description", "phoneNumber",
          "amount", "accountReference", "callbackUrl", "referenceId", "narration", "customerName");
      assertThat(json.get("errors").get("phoneNumber").get(0).stringValue())
          .isEqualTo("phoneNumber must be a Ugandan mobile number for UGX; +255712345678 is a Tanzanian number");
      assertThat(storedFor(org)).isZero();
    }

    static Stream<Arguments> invalidBodies() {
      return Stream.of(
          Arguments.of(named("amount 10.5", "\"amount\":10.5"), "amount"),
          Arguments.of(named("amount 0", "\"amount\":0"), "amount"),
          Arguments.of(named("amount -1", "\"amount\":-1"), "amount"),
          Arguments.of(named("amount \"10\"", "\"amount\":\"10\""), "amount"),
          Arguments.of(named("amount true", "\"amount\":true"), "amount"),
          Arguments.of(named("amount null", "\"amount\":null"), "amount"),
          Arguments.of(named("a 14 character description", "\"description\":\"ABCDEFGHIJKLMN\""), "description"),
          Arguments.of(named("a Kenyan landline", "\"phoneNumber\":\"0201234567\""), "phoneNumber"),
          Arguments.of(named("a 13 character accountReference", "\"accountReference\":\"ABCDEFGHIJKLM\""),
              "accountReference"),
          Arguments.of(named("a relative callbackUrl", "\"callbackUrl\":\"/cb\""), "callbackUrl"),
          Arguments.of(named("a loopback callbackUrl (SSRF)", "\"callbackUrl\":\"http://127.0.0.1:8080/cb\""),
              "callbackUrl"),
          Arguments.of(named("a decimal loopback callbackUrl (SSRF)", "\"callbackUrl\":\"http://2130706433/cb\""),
              "callbackUrl"),
          Arguments.of(named("the cloud metadata address (SSRF)",
              "\"callbackUrl\":\"http://169.254.169.254/latest/meta-data\""), "callbackUrl"),
          Arguments.of(named("a private callbackUrl (SSRF)", "\"callbackUrl\":\"https://10.1.2.3/cb\""),
              "callbackUrl"),
          Arguments.of(named("currency KES (the ISO code)", "\"currencyCode\":\"KES\""), "currencyCode"),
          Arguments.of(named("TZS without a channel", "\"currencyCode\":\"TZS\""), "channel"),
          Arguments.of(named("UGX without a customerName", "\"currencyCode\":\"UGX\",\"narration\":\"n\""),
              "customerName"));
    }

    @ParameterizedTest(name = "refuses {0} naming the field and storing nothing")
    @MethodSource("invalidBodies")
    void refusesAnInvalidField(String override, String field) {
      String org = newOrganisation();
      // a later duplicate key would be refused as ambiguous, so the override replaces the field's text
      String body = replaceField(body("0712345678"), override);

      TestHttp.Response response = http().postJson(NEW, body, as(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly(field);
      assertThat(storedFor(org)).isZero();
    }

    @Test
    void refusesMalformedJsonWith400() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(NEW, "{\"description\":", as(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("status").intValue()).isEqualTo(400);
      assertThat(response.json().get("data").isNull()).isTrue();
      assertThat(storedFor(org)).isZero();
    }

    @Test
    void refusesABodyThatIsNotAnObject() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(NEW, "[" + body("0712345678") + "]", as(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").has("body")).isTrue();
      assertThat(storedFor(org)).isZero();
    }

    @Test
    void refusesARequestWithoutATokenWith401() {
      TestHttp.Response response = http().postJson(NEW, body("0712345678"), Map.of());

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.json()).isEqualTo(JSON.readTree(
          "{\"status\":401,\"message\":\"invalid authentication token\",\"data\":null}"));
    }

    @Test
    void refusesAnExpiredTokenWith401() {
      String org = newOrganisation();
      String expired = TestIssuer.shared().token(org, claims -> claims
          .issueTime(Date.from(Instant.now().minusSeconds(900)))
          .notBeforeTime(Date.from(Instant.now().minusSeconds(900)))
          .expirationTime(Date.from(Instant.now().minusSeconds(600))));

      TestHttp.Response response = http().postJson(NEW, body("0712345678"), TestHttp.bearer(expired));

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.json().get("message").stringValue()).isEqualTo("invalid authentication token");
      assertThat(storedFor(org)).isZero();
    }

    @Test
    void refusesATamperedTokenWith401() {
      String token = TestIssuer.shared().accessToken(newOrganisation());
      String tampered = token.substring(0, token.length() - 4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");

      TestHttp.Response response = http().postJson(NEW, body("0712345678"), TestHttp.bearer(tampered));

      assertThat(response.status()).isEqualTo(401);
    }

    @Test
    void refusesANonJsonContentTypeWith415() {
      TestHttp.Response response = http().postJson(NEW, body("0712345678"),
          Map.of("Authorization", as(newOrganisation()).get("Authorization"), "Content-Type", "text/plain"));

      assertThat(response.status()).isEqualTo(415);
    }

    @Test
    void letsAnotherOrganisationUseTheSameReferenceId() {
      String body = body("0712345678").replace("{", "{\"referenceId\":\"shared-ref\",");
      create(newOrganisation(), body);

      assertThat(http().postJson(NEW, body, as(newOrganisation())).status()).isEqualTo(201);
    }

    @Test
    void keepsManyPushesWithoutAReferenceId() {
      String org = newOrganisation();

      create(org, body("0712345678"));
      create(org, body("0712345678"));
      create(org, body("0712345678"));

      assertThat(storedFor(org)).isEqualTo(3);
    }
  }

  @Nested
  class ListStkPushes {

    @Test
    void listsOnlyTheCallersPushesNewestFirstWithTheSpecFields() {
      String org = newOrganisation();
      String first = create(org, body("0712345678"));
      String second = create(org, body("254110345678"));
      create(newOrganisation(), body("0712345678"));

      TestHttp.Response response = http().get(ALL, as(org));

      assertThat(response.status()).isEqualTo(200);
      JsonNode json = response.json();
      assertThat(json.get("status").intValue()).isEqualTo(200);
      assertThat(json.get("message").stringValue()).isEqualTo("OK");
      List<JsonNode> records = json.get("data").valueStream().toList();
      assertThat(records).extracting(r -> r.get("uuid").stringValue()).containsExactly(second, first);
      JsonNode record = records.get(1);
      assertThat(record.propertyNames()).containsExactly("id", "uuid", "merchantRequestId", "checkoutRequestId",
          "phoneNumber", "description", "organisation", "amount", "status", "accountReference", "responseCode",
          "responseDescription", "customerMessage", "callbackUrl", "createdAt", "updatedAt", "referenceId",
          "currencyCode", "channel", "narration", "customerName");
      assertThat(record.get("currencyCode").stringValue()).isEqualTo("KSH");
      assertThat(record.get("channel").isNull()).isTrue();
      assertThat(record.get("id").isIntegralNumber()).isTrue();
      assertThat(record.get("phoneNumber").stringValue()).isEqualTo("254712345678");
      assertThat(record.get("description").stringValue()).isEqualTo("Order 42");
      assertThat(record.get("amount").isNumber()).isTrue();
      assertThat(record.get("amount").toString()).isEqualTo("10");
      assertThat(record.get("accountReference").stringValue()).isEqualTo("INV42");
      assertThat(record.get("callbackUrl").stringValue()).isEqualTo("https://merchant.example/callbacks/stk");
      assertThat(record.get("status").stringValue()).isIn("PENDING", "SUCCESS");
      assertThat(record.get("createdAt").stringValue()).matches(MICROSECOND_TIME);
      assertThat(record.get("updatedAt").stringValue()).matches(MICROSECOND_TIME);
      JsonNode organisation = record.get("organisation");
      assertThat(organisation.propertyNames()).containsExactly("id", "uuid", "name", "phoneNumber", "email",
          "uniqueReference", "createdAt", "updatedAt");
      assertThat(organisation.get("uuid").stringValue()).isEqualTo(org);
    }

    @Test
    void showsAnEmptyListToAnOrganisationWithoutPushes() {
      TestHttp.Response response = http().get(ALL, as(newOrganisation()));

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("data").isArray()).isTrue();
      assertThat(response.json().get("data").size()).isZero();
    }

    @Test
    void pagesWithSizeAndPage() {
      String org = newOrganisation();
      String first = create(org, body("0712345678"));
      String second = create(org, body("0712345678"));

      JsonNode newest = http().get(ALL + "?size=1", as(org)).json().get("data");
      JsonNode older = http().get(ALL + "?size=1&page=1", as(org)).json().get("data");

      assertThat(newest.size()).isEqualTo(1);
      assertThat(newest.get(0).get("uuid").stringValue()).isEqualTo(second);
      assertThat(older.get(0).get("uuid").stringValue()).isEqualTo(first);
    }

    static Stream<Arguments> badPaging() {
      return Stream.of(
          Arguments.of(named("size above 500", "?size=501"), "size"),
          Arguments.of(named("size 0", "?size=0"), "size"),
          Arguments.of(named("a negative page", "?page=-1"), "page"),
          Arguments.of(named("a page that is not a number", "?page=x"), "page"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("badPaging")
    void refusesBadPaging(String query, String field) {
      TestHttp.Response response = http().get(ALL + query, as(newOrganisation()));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly(field);
    }

    @Test
    void refusesARequestWithoutATokenWith401() {
      assertThat(http().get(ALL, Map.of()).status()).isEqualTo(401);
    }
  }

  /** Replaces the value of the field named in {@code override} ("field":value) in a one-level JSON body. */
  private static String replaceField(String body, String override) {
    String field = override.substring(0, override.indexOf(':'));
    if (!body.contains(field + ":")) {
      return body.replaceFirst("\\{", "{" + override + ",");
    }
    return body.replaceFirst(java.util.regex.Pattern.quote(field) + ":(\"[^\"]*\"|[^,}]*)",
        java.util.regex.Matcher.quoteReplacement(override));
  }
}
