package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * The tenancy matrix, run against a whole platform through its gateway: three organisations (A, its sub-account A1,
 * and B), each with a record of every kind, and for every endpoint that takes an id (in the path, the query or the
 * body) every pair of caller and owner gets the documented answer. Another organisation's records are answered like
 * unknown ones (404), never listed; a parent sees its sub-accounts' payout lists and moves money to and from them,
 * nothing else of theirs. Every miss is collected, so one run names them all.
 */
final class TenancyMatrix {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String A = "A";
  private static final String A1 = "A1";
  private static final String B = "B";
  private static final List<String> ORGANISATIONS = List.of(A, A1, B);

  private final TestHttp gateway;
  private final Map<String, String> operator;
  private final String callbackUrl;
  private final Map<String, Organisation> organisations = new LinkedHashMap<>();
  private final List<String> misses = new ArrayList<>();

  TenancyMatrix(TestHttp gateway, String operatorToken, String callbackUrl) {
    this.gateway = gateway;
    this.operator = Map.of("X-Operator-Token", operatorToken);
    this.callbackUrl = callbackUrl;
  }

  /** One organisation of the matrix: its id, token, bank account and the ids of its records. */
  private static final class Organisation {
    String id;
    String account;
    String token;
    final Map<String, String> records = new HashMap<>();

    Map<String, String> bearer() {
      return Map.of("Authorization", "Bearer " + token, "Device-Id", "tenancy-matrix");
    }
  }

  /** Sets up the organisations and their records, checks every pair, and fails naming every miss. */
  void run() {
    setUp();
    checkLookupsById();
    checkPayoutListsByCompany();
    checkTransfersBetweenAccounts();
    checkBankDepositsToAnAccountNumber();
    checkOwnListsShowNothingElse();
    assertThat(misses).as("answers that broke tenancy").isEmpty();
  }

  private void setUp() {
    String parent = createOrganisation(Map.of("name", "Tenancy A " + suffix()));
    organisations.put(A, organisation(parent));
    organisations.put(A1, organisation(createOrganisation(Map.of("name", "Tenancy A1 " + suffix(),
        "parentOrganisationId", parent))));
    organisations.put(B, organisation(createOrganisation(Map.of("name", "Tenancy B " + suffix()))));
    for (String name : ORGANISATIONS) {
      createRecords(organisations.get(name));
    }
  }

  private Organisation organisation(String id) {
    Organisation organisation = new Organisation();
    organisation.id = id;
    organisation.account = String.valueOf(ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_999_999_999L));
    TestHttp.Response patched = gateway.send("PATCH", "/admin/v1/organisations/" + id,
        TestHttp.json(Map.of("bankAccountNumbers", List.of(organisation.account))), json(operator));
    assertThat(patched.status()).as(patched.body()).isEqualTo(200);
    TestHttp.Response key = gateway.send("POST", "/admin/v1/organisations/" + id + "/api-keys", null, operator);
    assertThat(key.status()).as(key.body()).isEqualTo(201);
    JsonNode credentials = key.json().path("data");
    TestHttp.Response token = gateway.postJson("/api/v1/get-token", TestHttp.json(Map.of(
        "apiKey", credentials.path("apiKey").asString(), "apiSecret", credentials.path("apiSecret").asString())),
        Map.of());
    assertThat(token.status()).as(token.body()).isEqualTo(200);
    organisation.token = token.json().path("data").path("access_token").asString();
    return organisation;
  }

  private String createOrganisation(Map<String, Object> body) {
    TestHttp.Response created = gateway.postJson("/admin/v1/organisations", TestHttp.json(body), operator);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().path("data").path("organisationId").asString();
  }

  private void createRecords(Organisation o) {
    o.records.put("stk", created(o, "/api/sandbox/v1/stk/new", Map.of("description", "Tenancy",
        "phoneNumber", kenyanNumber(), "amount", 10, "accountReference", "TENANCY", "callbackUrl", callbackUrl,
        // the same referenceId in every organisation: each is its own namespace
        "referenceId", "tenancy-shared-reference")).path("requestId").asString());
    o.records.put("tzStk", created(o, "/api/sandbox/v1/stk/new", Map.of("description", "Tenancy",
        "phoneNumber", "25571" + digits(7), "amount", 1000, "currencyCode", "TZS", "channel", "TZ-TIGO-C2B",
        "callbackUrl", callbackUrl)).path("requestId").asString());
    o.records.put("sendMoney", created(o, "/api/sandbox/v1/send-money", Map.of("phoneNumber", kenyanNumber(),
        "amount", 10, "remarks", "tenancy", "occasion", "matrix", "callbackUrl", callbackUrl))
        .path("requestId").asString());
    o.records.put("tzSendMoney", created(o, "/api/sandbox/v1/send-money", Map.of("phoneNumber", "25571" + digits(7),
        "amount", 1000, "currencyCode", "TZS", "serviceCode", "TZ-TIGO-B2C", "narration", "tenancy",
        "firstName", "Asha", "lastName", "Juma", "callbackUrl", callbackUrl)).path("requestId").asString());
    o.records.put("till", created(o, "/api/sandbox/v1/till", Map.of("businessNumber", "174379", "amount", 10,
        "callbackUrl", callbackUrl)).path("requestId").asString());
    o.records.put("paybill", created(o, "/api/sandbox/v1/paybill", Map.of("businessNumber", "888880",
        "accountNumber", "ACC1", "amount", 10, "remarks", "tenancy", "occasion", "matrix",
        "callbackUrl", callbackUrl)).path("requestId").asString());
    o.records.put("bank", await("a bank deposit to " + o.account, () -> {
      TestHttp.Response r = gateway.postJson("/api/sandbox/v1/bank/collection/simulate", TestHttp.json(Map.of(
          "accountnumber", o.account, "amount", "100.00")), o.bearer());
      // the account number reaches collections-service as an event: wait until it holds it
      return r.status() == 201 ? r.json().path("data").path("uuid").asString() : null;
    }));
    TestHttp.Response session = gateway.postJson("/api/sandbox/v1/checkout-sessions", TestHttp.json(Map.of(
        "amount", 100, "currency", "KES", "description", "Tenancy", "successUrl", "https://shop.example/ok",
        "cancelUrl", "https://shop.example/cancel", "paymentMethods", List.of("CARD"))), o.bearer());
    assertThat(session.status()).as(session.body()).isEqualTo(201);
    o.records.put("session", session.json().path("id").asString());
    o.records.put("callback", await("the callback of " + o.records.get("stk"), () -> {
      JsonNode list = gateway.get("/api/v1/callbacks?requestId=" + o.records.get("stk"), o.bearer()).json();
      return list.path("data").isEmpty() ? null : list.path("data").get(0).path("callbackId").asString();
    }));
  }

  private void checkLookupsById() {
    for (String caller : ORGANISATIONS) {
      for (String owner : ORGANISATIONS) {
        Organisation c = organisations.get(caller);
        Organisation o = organisations.get(owner);
        boolean own = caller.equals(owner);
        expect(caller, owner, "GET TZ collection by requestId",
            gateway.get("/api/v1/tz/collections/single?requestId=" + o.records.get("tzStk"), c.bearer()), own);
        expect(caller, owner, "GET bank collection by requestId",
            gateway.get("/api/sandbox/v1/bank/collection/single?requestId=" + o.records.get("bank"), c.bearer()),
            own);
        expect(caller, owner, "GET paybill status by requestId",
            gateway.get("/api/sandbox/v1/paybill/status?requestId=" + o.records.get("paybill"), c.bearer()), own);
        expect(caller, owner, "GET TZ spending by requestId",
            gateway.get("/api/v1/tz/spending/single?requestId=" + o.records.get("tzSendMoney"), c.bearer()), own);
        expect(caller, owner, "GET checkout session by id",
            gateway.get("/api/sandbox/v1/checkout-sessions/" + o.records.get("session"), c.bearer()), own);
        for (String[] single : new String[][] {{"/api/sandbox/v1/stk/single", "stk"},
            {"/api/sandbox/v1/send-money/single", "sendMoney"}, {"/api/sandbox/v1/till/single", "till"},
            {"/api/sandbox/v1/paybill/single", "paybill"}}) {
          expect(caller, owner, "GET " + single[0] + " by requestId",
              gateway.get(single[0] + "?requestId=" + o.records.get(single[1]), c.bearer()), own);
        }
        if (own) {
          // every organisation used the same referenceId: each finds its own push by it, never another's
          TestHttp.Response byReference = gateway.get("/api/sandbox/v1/stk/single?referenceId=tenancy-shared-reference",
              c.bearer());
          if (byReference.status() != 200
              || !o.records.get("stk").equals(byReference.json().path("data").path("uuid").asString())) {
            miss(caller, owner, "GET STK push by the shared referenceId", byReference, "200 with its own push");
          }
        }
        TestHttp.Response callbacks = gateway.get("/api/v1/callbacks?requestId=" + o.records.get("stk"),
            c.bearer());
        if (callbacks.status() != 200 || callbacks.json().path("data").isEmpty() == own) {
          miss(caller, owner, "GET callbacks by requestId", callbacks, own ? "its callbacks" : "an empty list");
        }
        TestHttp.Response redeliver = gateway.send("POST", "/api/v1/callbacks/" + o.records.get("callback")
            + "/redeliver", null, c.bearer());
        if (redeliver.status() != (own ? 202 : 404)) {
          miss(caller, owner, "POST redeliver a callback", redeliver, own ? "202" : "404");
        }
      }
    }
  }

  private void checkPayoutListsByCompany() {
    for (String caller : ORGANISATIONS) {
      for (String owner : ORGANISATIONS) {
        Organisation c = organisations.get(caller);
        Organisation o = organisations.get(owner);
        // documented: a parent lists its sub-accounts' payouts; nobody lists anyone else's
        boolean allowed = caller.equals(owner) || (caller.equals(A) && owner.equals(A1));
        for (String[] list : new String[][] {{"/api/sandbox/v1/send-money/all", "sendMoney"},
            {"/api/sandbox/v1/till/all", "till"}, {"/api/sandbox/v1/paybill/all", "paybill"}}) {
          TestHttp.Response response = gateway.get(list[0] + "?companyId=" + o.id, c.bearer());
          String what = "GET " + list[0] + "?companyId";
          if (!allowed) {
            if (response.status() != 404) {
              miss(caller, owner, what, response, "404");
            }
            continue;
          }
          // payout records carry their requestId as the spec's uuid
          Set<String> listed = Set.copyOf(response.json().path("data").findValuesAsString("uuid"));
          if (response.status() != 200 || !listed.contains(o.records.get(list[1]))) {
            miss(caller, owner, what, response, "200 with " + owner + "'s records");
          }
          for (String other : ORGANISATIONS) {
            if (!other.equals(owner) && listed.contains(organisations.get(other).records.get(list[1]))) {
              miss(caller, owner, what, response, "none of " + other + "'s records");
            }
          }
        }
      }
    }
  }

  private void checkTransfersBetweenAccounts() {
    // the sub-account reaches payouts-service as an event: wait until the parent may fund it
    await("A may fund A1", () -> transfer(A, "/allocate", A1).status() == 201 ? "funded" : null);
    for (String caller : ORGANISATIONS) {
      for (String owner : ORGANISATIONS) {
        boolean allocate = caller.equals(A) && owner.equals(A1);
        boolean deallocate = owner.equals(A1) && (caller.equals(A) || caller.equals(A1));
        TestHttp.Response allocated = transfer(caller, "/allocate", owner);
        if (allocated.status() != (allocate ? 201 : 404)) {
          miss(caller, owner, "POST allocate to subAccountId", allocated, allocate ? "201" : "404");
        }
        TestHttp.Response deallocated = transfer(caller, "", owner);
        if (deallocated.status() != (deallocate ? 201 : 404)) {
          miss(caller, owner, "POST de-allocate from subAccountId", deallocated, deallocate ? "201" : "404");
        }
        TestHttp.Response admins = gateway.get("/api/sandbox/v1/de-allocations/org/all/admins?parentOrganisationId="
            + organisations.get(owner).id, organisations.get(caller).bearer());
        if (admins.status() != (caller.equals(owner) ? 200 : 404)) {
          miss(caller, owner, "GET de-allocations by parentOrganisationId", admins,
              caller.equals(owner) ? "200" : "404");
        }
      }
    }
  }

  private TestHttp.Response transfer(String caller, String path, String subAccount) {
    return gateway.postJson("/api/sandbox/v1/de-allocations" + path, TestHttp.json(Map.of(
        "subAccountId", organisations.get(subAccount).id, "amount", 1)), organisations.get(caller).bearer());
  }

  private void checkBankDepositsToAnAccountNumber() {
    for (String caller : ORGANISATIONS) {
      for (String owner : ORGANISATIONS) {
        if (caller.equals(owner)) {
          continue;
        }
        TestHttp.Response deposit = gateway.postJson("/api/sandbox/v1/bank/collection/simulate", TestHttp.json(
            Map.of("accountnumber", organisations.get(owner).account, "amount", "1.00")),
            organisations.get(caller).bearer());
        if (deposit.status() != 404) {
          miss(caller, owner, "POST a sandbox deposit to accountnumber", deposit, "404");
        }
      }
    }
  }

  private void checkOwnListsShowNothingElse() {
    for (String caller : ORGANISATIONS) {
      Organisation c = organisations.get(caller);
      Map<String, String> lists = Map.of(
          "/api/sandbox/v1/stk/all?size=500", "stk",
          "/api/sandbox/v1/bank/collection/all?size=500", "bank");
      lists.forEach((path, kind) -> {
        TestHttp.Response response = gateway.get(path, c.bearer());
        Set<String> listed = Set.copyOf(response.json().path("data").findValuesAsString("uuid"));
        if (response.status() != 200 || !listed.contains(c.records.get(kind))) {
          miss(caller, caller, "GET " + path, response, "200 with its own records");
        }
        for (String other : ORGANISATIONS) {
          if (!other.equals(caller) && listed.contains(organisations.get(other).records.get(kind))) {
            miss(caller, other, "GET " + path, response, "none of " + other + "'s records");
          }
        }
      });
    }
  }

  private void expect(String caller, String owner, String what, TestHttp.Response response, boolean own) {
    if (response.status() != (own ? 200 : 404)) {
      miss(caller, owner, what, response, own ? "200" : "404");
    }
  }

  private void miss(String caller, String owner, String what, TestHttp.Response response, String expected) {
    String body = response.body() == null ? "" : response.body();
    misses.add(caller + " on " + owner + "'s record: " + what + " answered " + response.status() + " (expected "
        + expected + ") " + (body.length() > 200 ? body.substring(0, 200) + "…" : body));
  }

  private JsonNode created(Organisation o, String path, Map<String, Object> body) {
    TestHttp.Response response = gateway.postJson(path, TestHttp.json(body), o.bearer());
    assertThat(response.status()).as(path + ": " + response.body()).isEqualTo(201);
    return response.json().path("data");
  }

  private static String await(String what, Supplier<String> attempt) {
    Instant deadline = Instant.now().plus(WAIT);
    while (Instant.now().isBefore(deadline)) {
      String value = attempt.get();
      if (value != null) {
        return value;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("not within " + WAIT + ": " + what);
  }

  private static Map<String, String> json(Map<String, String> headers) {
    Map<String, String> all = new HashMap<>(headers);
    all.put("Content-Type", "application/json");
    return all;
  }

  private static String kenyanNumber() {
    // a paying sandbox number (none of the magic failure numbers end like this)
    return "2547" + digits(2) + "5" + digits(5);
  }

  private static String digits(int count) {
    StringBuilder digits = new StringBuilder();
    for (int i = 0; i < count; i++) {
      digits.append(ThreadLocalRandom.current().nextInt(10));
    }
    return digits.toString();
  }

  private static String suffix() {
    return UUID.randomUUID().toString().substring(0, 8);
  }
}
