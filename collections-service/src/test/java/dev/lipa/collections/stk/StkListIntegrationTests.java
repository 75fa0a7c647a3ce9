package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.testsupport.TestHttp;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The filters and paging of {@code GET /api/sandbox/v1/stk/all}, over pushes stored with chosen times. */
class StkListIntegrationTests extends CollectionsIntegrationTest {

  private static final ZoneId NAIROBI = ZoneId.of("Africa/Nairobi");

  private String org;
  private String kenyanSuccess;
  private String kenyanFailedLate;
  private String tanzanianSuccess;
  private String ugandanFailed;
  private String futurePending;

  /** Stores a push as it would be after its outcome (completed pushes are left alone by the overdue sweep). */
  private String stored(String phone, StkCurrency currency, StkStatus status, Instant createdAt) {
    UUID requestId = UUID.randomUUID();
    StkPush push = StkPush.restore(new StkPush.Details(Math.abs(requestId.getMostSignificantBits() >> 11),
            RequestId.of(requestId), OrganisationId.of(org), null, phone, "Listed",
            currency == StkCurrency.KSH ? "INV1" : null, new BigDecimal("100"),
            currency, "https://merchant.example/cb", createdAt,
            currency == StkCurrency.TZS ? TzChannel.TIGO : null, null, null),
        status, createdAt, null, null);
    database.getCollection(StkPushStore.COLLECTION).insertOne(StkPushStore.toDocument(push));
    return requestId.toString();
  }

  private static Instant nairobi(String localDateTime) {
    return LocalDateTime.parse(localDateTime).atZone(NAIROBI).toInstant();
  }

  private List<String> listed(String query) {
    TestHttp.Response response = http().get(ALL + query, as(org));
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().get("data").valueStream().map(r -> r.get("uuid").stringValue()).toList();
  }

  @BeforeEach
  void pushesOfOneOrganisation() {
    org = newOrganisation();
    kenyanSuccess = stored("254712345678", StkCurrency.KSH, StkStatus.SUCCESS, nairobi("2026-03-01T00:00:00"));
    tanzanianSuccess = stored("255712345678", StkCurrency.TZS, StkStatus.SUCCESS, nairobi("2026-03-01T12:30:00"));
    ugandanFailed = stored("256772123456", StkCurrency.UGX, StkStatus.FAILED, nairobi("2026-03-01T23:59:59.999"));
    kenyanFailedLate = stored("254712345678", StkCurrency.KSH, StkStatus.FAILED, nairobi("2026-03-02T00:00:00"));
    // a PENDING push in the future: the overdue sweep leaves it PENDING
    futurePending = stored("254722345678", StkCurrency.KSH, StkStatus.PENDING, Instant.now().plusSeconds(86_400));
  }

  @Nested
  class Filters {

    static Stream<Arguments> filters() {
      return Stream.of(
          Arguments.of(named("no filter: all, newest first", ""), List.of(4, 3, 2, 1, 0)),
          Arguments.of(named("status SUCCESS", "?status=SUCCESS"), List.of(1, 0)),
          Arguments.of(named("status FAILED", "?status=FAILED"), List.of(3, 2)),
          Arguments.of(named("status PENDING", "?status=PENDING"), List.of(4)),
          Arguments.of(named("one day by date (from and to inclusive)", "?from=2026-03-01&to=2026-03-01"),
              List.of(2, 1, 0)),
          Arguments.of(named("from a date on", "?from=2026-03-02"), List.of(4, 3)),
          Arguments.of(named("to a date-time, inclusive", "?to=2026-03-01T12:30:00"), List.of(1, 0)),
          Arguments.of(named("from a date-time with an offset", "?from=2026-03-01T09:30:00Z"), List.of(4, 3, 2, 1)),
          Arguments.of(named("currency TZS", "?currencyCode=TZS"), List.of(1)),
          Arguments.of(named("currency UGX", "?currencyCode=UGX"), List.of(2)),
          Arguments.of(named("phone in a local form", "?phoneNumber=0712345678"), List.of(3, 0)),
          Arguments.of(named("phone in international form", "?phoneNumber=%2B255712345678"), List.of(1)),
          Arguments.of(named("a local phone read in the currency's country", "?phoneNumber=0712345678&currencyCode=TZS"),
              List.of(1)),
          Arguments.of(named("filters together", "?status=FAILED&currencyCode=KSH&from=2026-03-01"), List.of(3)),
          Arguments.of(named("an unknown parameter is ignored", "?colour=blue"), List.of(4, 3, 2, 1, 0)),
          Arguments.of(named("a page of 2", "?size=2&page=1"), List.of(2, 1)),
          Arguments.of(named("a page past the end", "?size=2&page=3"), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filters")
    void listsWhatTheFiltersSelect(String query, List<Integer> expected) {
      List<String> pushes = List.of(kenyanSuccess, tanzanianSuccess, ugandanFailed, kenyanFailedLate, futurePending);

      assertThat(listed(query)).containsExactlyElementsOf(expected.stream().map(pushes::get).toList());
    }

    @Test
    void neverShowsAnotherOrganisationsPushes() {
      String mine = org;
      org = newOrganisation();

      assertThat(listed("?status=SUCCESS")).isEmpty();
      org = mine;
    }
  }

  @Nested
  class BadFilters {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("status in lower case", "?status=success"), "status"),
          Arguments.of(named("an unknown status", "?status=CANCELLED"), "status"),
          Arguments.of(named("from not a date", "?from=yesterday"), "from"),
          Arguments.of(named("from an impossible date", "?from=2026-02-30"), "from"),
          Arguments.of(named("to a US date", "?to=03/01/2026"), "to"),
          Arguments.of(named("to before from", "?from=2026-03-02&to=2026-03-01"), "to"),
          Arguments.of(named("an unknown currency", "?currencyCode=KES"), "currencyCode"),
          Arguments.of(named("a phone number of no STK country", "?phoneNumber=447911123456"), "phoneNumber"),
          Arguments.of(named("size above 500", "?size=501"), "size"),
          Arguments.of(named("size 0", "?size=0"), "size"),
          Arguments.of(named("size not a number", "?size=ten"), "size"),
          Arguments.of(named("a negative page", "?page=-1"), "page"),
          Arguments.of(named("a page too large", "?page=2147483647&size=500"), "page"));
    }

    @ParameterizedTest(name = "refuses {0} naming it")
    @MethodSource("refused")
    void refusesABadValueWith400NamingTheParameter(String query, String parameter) {
      TestHttp.Response response = http().get(ALL + query, as(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly(parameter);
    }

    @Test
    void namesEveryBadParameterAtOnce() {
      TestHttp.Response response = http().get(ALL + "?status=x&from=x&currencyCode=x&size=x&page=x", as(org));

      assertThat(response.json().get("errors").propertyNames())
          .containsExactlyInAnyOrder("status", "from", "currencyCode", "size", "page");
    }
  }
}
