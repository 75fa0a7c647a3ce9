package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.lookups.ListCursor;
import dev.lipa.common.testsupport.TestHttp;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/sandbox/v1/stk/single} by requestId and by referenceId, and the next-page cursor of
 * {@code GET /api/sandbox/v1/stk/all}: the caller's own records only, every other id the same 404, every bad
 * parameter a 400, and pages that neither repeat nor skip a push while new ones arrive.
 */
class StkLookupIntegrationTests extends CollectionsIntegrationTest {

  private static final String SINGLE = "/api/sandbox/v1/stk/single";
  private static final Instant T0 = Instant.parse("2026-03-01T06:00:00Z");

  private static String encoded(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String withReference(String phone, String referenceId) {
    return """
        {"description":"Order 42","phoneNumber":"%s","amount":10,"accountReference":"INV42","referenceId":"%s",
         "callbackUrl":"https://merchant.example/callbacks/stk"}""".formatted(phone, referenceId);
  }

  /** The list's record of {@code requestId}, as {@code /stk/all} shows it. */
  private JsonNode listed(String org, String requestId) {
    JsonNode data = http().get(ALL + "?size=500", as(org)).json().get("data");
    return data.valueStream().filter(r -> r.get("uuid").stringValue().equals(requestId)).findFirst().orElseThrow();
  }

  private static void assertNotFound(TestHttp.Response response, String message) {
    assertThat(response.status()).as(response.body()).isEqualTo(404);
    assertThat(response.body()).isEqualTo("{\"status\":404,\"message\":\"" + message + "\",\"data\":null}");
  }

  @Nested
  class Single {

    private String org;
    private String requestId;

    @BeforeEach
    void aPushWithAReferenceId() {
      org = newOrganisation();
      requestId = create(org, withReference("254712345678", "INV 42/ä"));
    }

    @Test
    void findsThePushByItsRequestIdInTheListsShape() {
      TestHttp.Response response = http().get(SINGLE + "?requestId=" + requestId, as(org));

      assertThat(response.status()).as(response.body()).isEqualTo(200);
      assertThat(response.json().get("status").intValue()).isEqualTo(200);
      assertThat(response.json().get("message").stringValue()).isEqualTo("OK");
      JsonNode record = response.json().get("data");
      assertThat(record.get("uuid").stringValue()).isEqualTo(requestId);
      assertThat(record.get("referenceId").stringValue()).isEqualTo("INV 42/ä");
      // the same record as the list, field for field (read after: its status may have moved on meanwhile)
      JsonNode again = http().get(SINGLE + "?requestId=" + requestId, as(org)).json().get("data");
      assertThat(again).isEqualTo(listed(org, requestId));
    }

    @Test
    void findsThePushByTheCallersReferenceId() {
      TestHttp.Response byReference = http().get(SINGLE + "?referenceId=" + encoded("INV 42/ä"), as(org));
      TestHttp.Response byRequestId = http().get(SINGLE + "?requestId=" + requestId, as(org));

      assertThat(byReference.status()).as(byReference.body()).isEqualTo(200);
      assertThat(byReference.json().get("data").get("uuid").stringValue()).isEqualTo(requestId);
      assertThat(byReference.json().get("data").propertyNames())
          .containsExactlyElementsOf(byRequestId.json().get("data").propertyNames());
    }

    @Test
    void readsTheRequestIdInUpperCaseAndTheReferenceIdWithSpacesAroundIt() {
      assertThat(http().get(SINGLE + "?requestId=" + requestId.toUpperCase(), as(org)).status()).isEqualTo(200);
      assertThat(http().get(SINGLE + "?referenceId=" + encoded("  INV 42/ä "), as(org)).status()).isEqualTo(200);
    }

    @Test
    void answersAnotherOrganisationsRequestIdAndReferenceIdExactlyLikeUnknownOnes() {
      String other = newOrganisation();
      String unknown = UUID.randomUUID().toString();

      assertNotFound(http().get(SINGLE + "?requestId=" + requestId, as(other)),
          "No STK push with requestId " + requestId);
      assertNotFound(http().get(SINGLE + "?requestId=" + unknown, as(other)),
          "No STK push with requestId " + unknown);
      assertNotFound(http().get(SINGLE + "?referenceId=" + encoded("INV 42/ä"), as(other)),
          "No STK push with referenceId INV 42/ä");
    }

    @Test
    void givesEachOrganisationItsOwnPushForTheSameReferenceId() {
      String other = newOrganisation();
      String theirs = create(other, withReference("254722345678", "INV 42/ä"));

      TestHttp.Response mine = http().get(SINGLE + "?referenceId=" + encoded("INV 42/ä"), as(org));
      TestHttp.Response their = http().get(SINGLE + "?referenceId=" + encoded("INV 42/ä"), as(other));

      assertThat(mine.json().get("data").get("uuid").stringValue()).isEqualTo(requestId);
      assertThat(their.json().get("data").get("uuid").stringValue()).isEqualTo(theirs);
    }

    @Test
    void doesNotMatchAReferenceIdByPrefixOrCase() {
      assertThat(http().get(SINGLE + "?referenceId=INV", as(org)).status()).isEqualTo(404);
      assertThat(http().get(SINGLE + "?referenceId=" + encoded("inv 42/ä"), as(org)).status()).isEqualTo(404);
      assertThat(http().get(SINGLE + "?referenceId=" + encoded("INV 42/.*"), as(org)).status()).isEqualTo(404);
    }

    @Test
    void wantsAToken() {
      assertThat(http().get(SINGLE + "?requestId=" + requestId, java.util.Map.of()).status()).isEqualTo(401);
    }

    static Stream<Arguments> refused() {
      String id = UUID.randomUUID().toString();
      return Stream.of(
          Arguments.of(named("no parameter", ""), "requestId"),
          Arguments.of(named("both", "?requestId=" + id + "&referenceId=r1"), "referenceId"),
          Arguments.of(named("empty values", "?requestId=&referenceId="), "requestId"),
          Arguments.of(named("the word all", "?requestId=all"), "requestId"),
          Arguments.of(named("a number", "?requestId=42"), "requestId"),
          Arguments.of(named("a short UUID form", "?requestId=1-1-1-1-1"), "requestId"),
          Arguments.of(named("a UUID with a NUL", "?requestId=" + id + "%00"), "requestId"),
          Arguments.of(named("a regex", "?requestId=.*"), "requestId"),
          Arguments.of(named("a huge requestId", "?requestId=" + "f".repeat(6000)), "requestId"),
          Arguments.of(named("a referenceId over 64 characters", "?referenceId=" + "r".repeat(65)), "referenceId"),
          Arguments.of(named("requestId twice", "?requestId=" + id + "&requestId=" + id), "requestId"));
    }

    @ParameterizedTest(name = "refuses {0} with a 400 naming it")
    @MethodSource("refused")
    void refusesABadParameterWith400NamingIt(String query, String parameter) {
      TestHttp.Response response = http().get(SINGLE + query, as(org));

      assertThat(response.status()).as(response.body()).isEqualTo(400);
      assertThat(response.json().get("data").isNull()).isTrue();
      assertThat(response.json().get("errors").propertyNames()).contains(parameter);
    }
  }

  @Nested
  class Cursor {

    private String org;
    private long nextId = 1_000;

    /** Stores a completed push created at {@code createdAt} (the numeric id grows with each). */
    private String stored(String organisation, Instant createdAt, StkStatus status) {
      UUID requestId = UUID.randomUUID();
      StkPush push = StkPush.restore(new StkPush.Details(nextId++ + Math.abs(requestId.getMostSignificantBits() >> 20),
              RequestId.of(requestId), OrganisationId.of(organisation), null, "254712345678", "Paged", "INV1",
              new BigDecimal("100"), StkCurrency.KSH, "https://merchant.example/cb", createdAt, null, null, null),
          status, createdAt, null, null);
      database.getCollection(StkPushStore.COLLECTION).insertOne(StkPushStore.toDocument(push));
      return requestId.toString();
    }

    private JsonNode page(String query) {
      TestHttp.Response response = http().get(ALL + query, as(org));
      assertThat(response.status()).as(response.body()).isEqualTo(200);
      return response.json();
    }

    private static List<String> ids(JsonNode page) {
      return page.get("data").valueStream().map(r -> r.get("uuid").stringValue()).toList();
    }

    private static String next(JsonNode page) {
      return page.get("nextCursor").isNull() ? null : page.get("nextCursor").stringValue();
    }

    /** Every page of {@code query}, following the cursors; {@code between} runs after the first page. */
    private List<String> allPages(String query, Runnable between) {
      List<String> seen = new ArrayList<>();
      JsonNode page = page(query);
      seen.addAll(ids(page));
      between.run();
      for (int guard = 0; next(page) != null && guard < 100; guard++) {
        page = page(query + "&cursor=" + next(page));
        seen.addAll(ids(page));
      }
      assertThat(next(page)).as("the last page's cursor").isNull();
      return seen;
    }

    @BeforeEach
    void anOrganisation() {
      org = newOrganisation();
    }

    @Test
    void followsTheCursorsThroughEveryPushOnceNewestFirstIncludingTiesOnCreatedAt() {
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        expected.addFirst(stored(org, T0.plusSeconds(i), StkStatus.SUCCESS));
      }
      // three at the same millisecond: their order is the numeric id's, and pages may split them
      for (int i = 0; i < 3; i++) {
        expected.addFirst(stored(org, T0.plusSeconds(10), StkStatus.FAILED));
      }

      List<String> paged = allPages("?size=2", () -> { });

      assertThat(paged).containsExactlyElementsOf(ids(page("?size=500")));
      assertThat(new HashSet<>(paged)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void neitherRepeatsNorSkipsAPushWhenNewOnesArriveBetweenPages() {
      List<String> before = new ArrayList<>();
      for (int i = 0; i < 7; i++) {
        before.addFirst(stored(org, T0.plusSeconds(i), StkStatus.SUCCESS));
      }
      List<String> arrived = new ArrayList<>();

      List<String> paged = allPages("?size=3", () -> {
        arrived.add(stored(org, T0.plusSeconds(100), StkStatus.SUCCESS));
        arrived.add(stored(org, Instant.now(), StkStatus.SUCCESS));
      });

      assertThat(paged).doesNotHaveDuplicates().containsExactlyElementsOf(before);
      assertThat(paged).doesNotContainAnyElementsOf(arrived);
    }

    @Test
    void hasNoNextPageWhenTheLastPageIsExactlyFull() {
      stored(org, T0, StkStatus.SUCCESS);
      stored(org, T0.plusSeconds(1), StkStatus.SUCCESS);

      JsonNode first = page("?size=1");
      JsonNode second = page("?size=1&cursor=" + next(first));

      assertThat(next(first)).isNotNull();
      assertThat(ids(second)).hasSize(1);
      assertThat(next(second)).isNull();
      assertThat(page("?size=2").get("nextCursor").isNull()).isTrue();
    }

    @Test
    void keepsTheFiltersAlongsideTheCursor() {
      String failedOld = stored(org, T0, StkStatus.FAILED);
      stored(org, T0.plusSeconds(1), StkStatus.SUCCESS);
      String failedNew = stored(org, T0.plusSeconds(2), StkStatus.FAILED);

      assertThat(allPages("?status=FAILED&size=1", () -> { })).containsExactly(failedNew, failedOld);
    }

    @Test
    void continuesFromAPageChosenByNumber() {
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        expected.addFirst(stored(org, T0.plusSeconds(i), StkStatus.SUCCESS));
      }

      JsonNode second = page("?size=2&page=1");
      JsonNode third = page("?size=2&cursor=" + next(second));

      assertThat(ids(third)).containsExactly(expected.get(4));
    }

    @Test
    void refusesAnotherOrganisationsCursorWithoutShowingItsPushes() {
      String other = newOrganisation();
      String mine = org;
      org = other;
      stored(other, T0, StkStatus.SUCCESS);
      stored(other, T0.plusSeconds(1), StkStatus.SUCCESS);
      String theirCursor = next(page("?size=1"));
      org = mine;

      TestHttp.Response response = http().get(ALL + "?cursor=" + theirCursor, as(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("data").isNull()).isTrue();
      assertThat(response.json().get("errors").propertyNames()).containsExactly("cursor");
    }

    @Test
    void refusesACursorForgedForAnotherOrganisationOrAnotherList() {
      String forged = new ListCursor("stk", OrganisationId.of(newOrganisation()), T0, 1).encode();
      String payoutList = new ListCursor("payouts-SEND_MONEY", OrganisationId.of(org), T0, 1).encode();

      assertThat(http().get(ALL + "?cursor=" + forged, as(org)).status()).isEqualTo(400);
      assertThat(http().get(ALL + "?cursor=" + payoutList, as(org)).status()).isEqualTo(400);
    }

    static Stream<Arguments> badCursors() {
      return Stream.of(
          Arguments.of(named("garbage", "?cursor=abc")),
          Arguments.of(named("two dots", "?cursor=a.b.c")),
          Arguments.of(named("not base64", "?cursor=%21%21.%3F%3F")),
          Arguments.of(named("huge", "?cursor=" + "A".repeat(6000) + ".AA")),
          Arguments.of(named("a cursor with a page", "?page=0&cursor=abc")),
          Arguments.of(named("twice", "?cursor=abc&cursor=def")));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("badCursors")
    void refusesABadCursorWith400(String query) {
      TestHttp.Response response = http().get(ALL + query, as(org));

      assertThat(response.status()).as(response.body()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsAnyOf("cursor", "page");
    }

    @Test
    void refusesACursorEditedByHand() {
      stored(org, T0, StkStatus.SUCCESS);
      stored(org, T0.plusSeconds(1), StkStatus.SUCCESS);
      String cursor = next(page("?size=1"));
      String edited = cursor.substring(0, 3) + (cursor.charAt(3) == 'A' ? 'B' : 'A') + cursor.substring(4);

      assertThat(http().get(ALL + "?cursor=" + edited, as(org)).status()).isEqualTo(400);
    }
  }
}
