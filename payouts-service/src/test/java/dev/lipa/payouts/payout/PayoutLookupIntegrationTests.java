package dev.lipa.payouts.payout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.lookups.ListCursor;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /send-money/single}, {@code /till/single} and {@code /paybill/single} by requestId and by referenceId, and
 * the next-page cursor of their lists: the caller's own payouts of that kind only (another organisation's, a
 * sub-account's and another kind's are the same 404), and pages that neither repeat nor skip a payout while new ones
 * arrive.
 */
class PayoutLookupIntegrationTests extends PayoutsIntegrationTest {

  private static final Instant T0 = Instant.parse("2026-03-01T06:00:00Z");

  private static String path(PayoutKind kind) {
    return switch (kind) {
      case SEND_MONEY -> SEND_MONEY;
      case TILL -> TILL;
      case PAYBILL -> PAYBILL;
    };
  }

  private static String body(PayoutKind kind, String referenceId) {
    String reference = referenceId == null ? "" : ",\"referenceId\":\"" + referenceId + "\"";
    return switch (kind) {
      case SEND_MONEY -> """
          {"phoneNumber":"254712345678","amount":10,"remarks":"salary","occasion":"June",
           "callbackUrl":"https://merchant.example/cb"%s}""".formatted(reference);
      case TILL -> """
          {"businessNumber":"174379","amount":10,"callbackUrl":"https://merchant.example/cb"%s}"""
          .formatted(reference);
      case PAYBILL -> """
          {"businessNumber":"888880","accountNumber":"A1","amount":10,"remarks":"rent","occasion":"July",
           "callbackUrl":"https://merchant.example/cb"%s}""".formatted(reference);
    };
  }

  private static String encoded(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private TestHttp.Response single(PayoutKind kind, String query, String org) {
    return http().get(path(kind) + "/single" + query, as(org));
  }

  private JsonNode listed(PayoutKind kind, String org, String requestId) {
    JsonNode data = http().get(path(kind) + "/all?size=500&companyId=" + org, as(org)).json().get("data");
    return data.valueStream().filter(r -> r.get("uuid").stringValue().equals(requestId)).findFirst().orElseThrow();
  }

  @Nested
  class Single {

    private String org;

    @BeforeEach
    void anOrganisation() {
      org = newOrganisation();
    }

    @ParameterizedTest
    @EnumSource(PayoutKind.class)
    void findsThePayoutByRequestIdAndByReferenceIdInTheListsShape(PayoutKind kind) {
      String requestId = create(path(kind), org, body(kind, "INV 9/ä"));

      TestHttp.Response byId = single(kind, "?requestId=" + requestId, org);
      TestHttp.Response byReference = single(kind, "?referenceId=" + encoded("INV 9/ä"), org);

      assertThat(byId.status()).as(byId.body()).isEqualTo(200);
      assertThat(byId.json().get("message").stringValue()).isEqualTo("OK");
      assertThat(byId.json().get("data").get("uuid").stringValue()).isEqualTo(requestId);
      assertThat(byReference.status()).as(byReference.body()).isEqualTo(200);
      assertThat(byReference.json().get("data").get("uuid").stringValue()).isEqualTo(requestId);
      // field for field the list's record (read after it: the status may have moved on meanwhile)
      JsonNode list = listed(kind, org, requestId);
      JsonNode again = single(kind, "?requestId=" + requestId, org).json().get("data");
      assertThat(again.propertyNames()).containsExactlyElementsOf(list.propertyNames());
      assertThat(again.get("status")).isEqualTo(list.get("status"));
      assertThat(again.get("createdAt")).isEqualTo(list.get("createdAt"));
      assertThat(again.get("organisation")).isEqualTo(list.get("organisation"));
    }

    @ParameterizedTest
    @EnumSource(PayoutKind.class)
    void answersAnotherOrganisationsPayoutExactlyLikeAnUnknownOne(PayoutKind kind) {
      String requestId = create(path(kind), org, body(kind, "R-1"));
      String other = newOrganisation();
      String unknown = UUID.randomUUID().toString();

      TestHttp.Response theirs = single(kind, "?requestId=" + requestId, other);
      TestHttp.Response none = single(kind, "?requestId=" + unknown, other);
      TestHttp.Response theirReference = single(kind, "?referenceId=R-1", other);

      assertThat(theirs.status()).isEqualTo(404);
      assertThat(theirs.body()).isEqualTo(none.body().replace(unknown, requestId));
      assertThat(theirs.json().get("data").isNull()).isTrue();
      assertThat(theirReference.status()).isEqualTo(404);
    }

    @Test
    void answersAPayoutOfAnotherKindWith404() {
      String sendMoney = create(SEND_MONEY, org, body(PayoutKind.SEND_MONEY, "SAME-REF"));
      String till = create(TILL, org, body(PayoutKind.TILL, null));

      assertThat(single(PayoutKind.TILL, "?requestId=" + sendMoney, org).status()).isEqualTo(404);
      assertThat(single(PayoutKind.PAYBILL, "?requestId=" + sendMoney, org).status()).isEqualTo(404);
      assertThat(single(PayoutKind.SEND_MONEY, "?requestId=" + till, org).status()).isEqualTo(404);
      assertThat(single(PayoutKind.PAYBILL, "?requestId=" + till, org).status()).isEqualTo(404);
      assertThat(single(PayoutKind.TILL, "?referenceId=SAME-REF", org).status()).isEqualTo(404);
    }

    @Test
    void findsEachKindsOwnPayoutForAReferenceIdUsedOnTwoKinds() {
      String sendMoney = create(SEND_MONEY, org, body(PayoutKind.SEND_MONEY, "SHARED"));
      String till = create(TILL, org, body(PayoutKind.TILL, "SHARED"));

      assertThat(single(PayoutKind.SEND_MONEY, "?referenceId=SHARED", org).json().get("data").get("uuid")
          .stringValue()).isEqualTo(sendMoney);
      assertThat(single(PayoutKind.TILL, "?referenceId=SHARED", org).json().get("data").get("uuid").stringValue())
          .isEqualTo(till);
    }

    @Test
    void answersASubAccountsPayoutToItsParentWith404AsEveryLookupById() {
      String child = newOrganisation();
      subAccount(child, org);
      String childs = create(SEND_MONEY, child, body(PayoutKind.SEND_MONEY, "CHILD-1"));

      assertThat(single(PayoutKind.SEND_MONEY, "?requestId=" + childs, org).status()).isEqualTo(404);
      assertThat(single(PayoutKind.SEND_MONEY, "?referenceId=CHILD-1", org).status()).isEqualTo(404);
      assertThat(single(PayoutKind.SEND_MONEY, "?requestId=" + childs, child).status()).isEqualTo(200);
    }

    static Stream<Arguments> refused() {
      String id = UUID.randomUUID().toString();
      return Stream.of(
          Arguments.of(named("no parameter", ""), "requestId"),
          Arguments.of(named("both", "?requestId=" + id + "&referenceId=r1"), "referenceId"),
          Arguments.of(named("blank values", "?requestId=%20&referenceId="), "requestId"),
          Arguments.of(named("the word status", "?requestId=status"), "requestId"),
          Arguments.of(named("a huge requestId", "?requestId=" + "9".repeat(6000)), "requestId"),
          Arguments.of(named("a referenceId over 64 characters", "?referenceId=" + "r".repeat(65)), "referenceId"),
          Arguments.of(named("referenceId twice", "?referenceId=a&referenceId=a"), "referenceId"));
    }

    @ParameterizedTest(name = "refuses {0} with a 400 naming it")
    @MethodSource("refused")
    void refusesABadParameterWith400NamingIt(String query, String parameter) {
      for (PayoutKind kind : PayoutKind.values()) {
        TestHttp.Response response = single(kind, query, org);

        assertThat(response.status()).as(kind + " " + response.body()).isEqualTo(400);
        assertThat(response.json().get("errors").propertyNames()).contains(parameter);
      }
    }
  }

  @Nested
  class Cursor {

    private String org;
    private long nextId = 5_000;

    private String stored(String organisation, PayoutKind kind, Instant createdAt) {
      UUID requestId = UUID.randomUUID();
      PayoutRequest request = kind == PayoutKind.SEND_MONEY
          ? new PayoutRequest(kind, Currency.KSH, new BigDecimal("10"), "https://merchant.example/cb", null,
              "254712345678", null, null, "salary", "June", null, null, null, null, null)
          : new PayoutRequest(kind, Currency.KSH, new BigDecimal("10"), "https://merchant.example/cb", null, null,
              "174379", "A1", "stock", null, null, null, null, null, null);
      Payout payout = Payout.restore(new Payout.Details(nextId++ + Math.abs(requestId.getMostSignificantBits() >> 20),
          RequestId.of(requestId), OrganisationId.of(organisation), request, "OC-" + requestId, createdAt),
          // completed, so that the overdue sweep leaves these old payouts alone
          PayoutStatus.SUCCESS, createdAt, null);
      database.getCollection(PayoutStore.COLLECTION).insertOne(PayoutStore.toDocument(payout));
      return requestId.toString();
    }

    private JsonNode page(PayoutKind kind, String company, String query) {
      TestHttp.Response response = http().get(path(kind) + "/all?companyId=" + company + query, as(org));
      assertThat(response.status()).as(response.body()).isEqualTo(200);
      return response.json();
    }

    private static List<String> ids(JsonNode page) {
      return page.get("data").valueStream().map(r -> r.get("uuid").stringValue()).toList();
    }

    private static String next(JsonNode page) {
      return page.get("nextCursor").isNull() ? null : page.get("nextCursor").stringValue();
    }

    @BeforeEach
    void anOrganisation() {
      org = newOrganisation();
    }

    @ParameterizedTest
    @EnumSource(PayoutKind.class)
    void neitherRepeatsNorSkipsAPayoutWhenNewOnesArriveBetweenPages(PayoutKind kind) {
      List<String> before = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        before.addFirst(stored(org, kind, T0.plusSeconds(i)));
      }
      // two at the very same millisecond as the oldest: the numeric id orders them
      before.add(stored(org, kind, T0.minusSeconds(1)));
      before.add(stored(org, kind, T0.minusSeconds(1)));
      List<String> expected = ids(page(kind, org, "&size=500"));

      List<String> paged = new ArrayList<>();
      JsonNode page = page(kind, org, "&size=2");
      paged.addAll(ids(page));
      String arrived = stored(org, kind, T0.plusSeconds(60));
      while (next(page) != null) {
        page = page(kind, org, "&size=2&cursor=" + next(page));
        paged.addAll(ids(page));
      }

      assertThat(paged).doesNotHaveDuplicates().containsExactlyElementsOf(expected).doesNotContain(arrived);
      assertThat(paged).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void refusesACursorOfAnotherKindsList() {
      stored(org, PayoutKind.TILL, T0);
      stored(org, PayoutKind.TILL, T0.plusSeconds(1));
      String tillCursor = next(page(PayoutKind.TILL, org, "&size=1"));

      TestHttp.Response response = http().get(SEND_MONEY + "/all?companyId=" + org + "&cursor=" + tillCursor,
          as(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly("cursor");
    }

    @Test
    void refusesTheParentsCursorOnASubAccountsListAndTheOtherWayRound() {
      String child = newOrganisation();
      subAccount(child, org);
      for (String owner : List.of(org, child)) {
        stored(owner, PayoutKind.PAYBILL, T0);
        stored(owner, PayoutKind.PAYBILL, T0.plusSeconds(1));
      }
      String parents = next(page(PayoutKind.PAYBILL, org, "&size=1"));
      String childs = next(page(PayoutKind.PAYBILL, child, "&size=1"));

      assertThat(page(PayoutKind.PAYBILL, child, "&size=1&cursor=" + childs).get("data").size()).isEqualTo(1);
      assertThat(http().get(PAYBILL + "/all?companyId=" + child + "&cursor=" + parents, as(org)).status())
          .isEqualTo(400);
      assertThat(http().get(PAYBILL + "/all?cursor=" + childs, as(org)).status()).isEqualTo(400);
    }

    @Test
    void refusesAnotherOrganisationsCursorEvenWhenItsDigestIsRight() {
      String forged = new ListCursor(PayoutListQuery.cursorList(PayoutKind.SEND_MONEY),
          OrganisationId.of(newOrganisation()), T0, 1).encode();

      TestHttp.Response response = http().get(SEND_MONEY + "/all?companyId=" + org + "&cursor=" + forged, as(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("data").isNull()).isTrue();
    }

    @Test
    void refusesGarbageAndACursorWithAPage() {
      for (String query : List.of("&cursor=abc", "&cursor=" + "A".repeat(6000) + ".AA", "&page=1&cursor=abc")) {
        TestHttp.Response response = http().get(TILL + "/all?companyId=" + org + query, as(org));

        assertThat(response.status()).as(query).isEqualTo(400);
      }
    }

    @Test
    void answersACompanyThatIsNotTheCallersWith404BeforeLookingAtTheCursor() {
      String forged = new ListCursor(PayoutListQuery.cursorList(PayoutKind.TILL), OrganisationId.of(org), T0, 1)
          .encode();

      TestHttp.Response response = http().get(TILL + "/all?companyId=" + newOrganisation() + "&cursor=" + forged,
          as(org));

      assertThat(response.status()).isEqualTo(404);
    }
  }
}
