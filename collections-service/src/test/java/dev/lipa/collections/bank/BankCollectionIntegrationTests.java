package dev.lipa.collections.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Named.named;

import com.mongodb.client.model.Filters;
import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.testsupport.PublishedRecords;
import dev.lipa.common.testsupport.StoredShape;
import dev.lipa.common.testsupport.TopicRecorder;
import dev.lipa.common.events.Topics;
import dev.lipa.common.organisations.OrganisationDirectory;
import dev.lipa.common.organisations.OrganisationProfile;
import dev.lipa.common.testsupport.TestHttp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class BankCollectionIntegrationTests extends CollectionsIntegrationTest {

  static final String BANK = "testbank";
  static final String SECRET = "test-bank-shared-secret-0b7d41c9e2a84f6c";
  static final String NOTIFY = "/api/v1/banks/" + BANK + "/notifications";
  static final String SIMULATE = "/api/sandbox/v1/bank/collection/simulate";
  static final String SINGLE = "/api/sandbox/v1/bank/collection/single";
  static final String ALL = "/api/sandbox/v1/bank/collection/all";
  static final String RECORD_TIME = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}";
  static final JsonMapper JSON = JsonMapper.builder().build();

  @Autowired
  OrganisationDirectory directory;

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  static String account() {
    return String.valueOf(ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_999_999_999L));
  }

  /** An organisation whose profile (as auth-service publishes it) is in this service's copy. */
  String organisationWith(String account, String collectionCallbackUrl) {
    String org = newOrganisation();
    Instant created = Instant.parse("2025-03-01T08:00:00Z");
    directory.apply(new OrganisationProfile(org, ThreadLocalRandom.current().nextLong(1, 1L << 40), "Duka Kuu",
        "254700000001", "ops@duka.example", "LP000000TEST", "sandbox", collectionCallbackUrl, null, true,
        List.of(account), null, null, created, created, 1));
    return org;
  }

  /** The documented scheme, computed here independently of the production code. */
  static String signature(String secret, long t, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal((t + "." + body)
          .getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static String notification(String transactionref, String account, String amount) {
    return """
        {"transactionref":"%s","accountnumber":"%s","amount":%s,"customerid":"CUST-7","paymentmode":"RTGS",
         "transactiondate":"2025-06-01","description":"Invoice 42"}""".formatted(transactionref, account, amount);
  }

  TestHttp.Response sendNotification(String body, String signature) {
    return http().postJson(NOTIFY, body, signature == null ? Map.of() : Map.of("X-Lipa-Signature", signature));
  }

  TestHttp.Response signedNotify(String body) {
    return sendNotification(body, signature(SECRET, Instant.now().getEpochSecond(), body));
  }

  long stored(String transactionref) {
    return database.getCollection(BankCollectionStore.COLLECTION)
        .countDocuments(Filters.eq("transactionref", transactionref));
  }

  static String ref() {
    return "FT" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toUpperCase();
  }

  @Nested
  class PartnerNotification {

    @Test
    void storesASignedNotificationAndAnswers201WithTheRecord() {
      String account = account();
      organisationWith(account, null);
      String ref = ref();

      TestHttp.Response response = signedNotify(notification(ref, account, "\"1500.00\""));

      assertThat(response.status()).as(response.body()).isEqualTo(201);
      JsonNode data = response.json().get("data");
      assertThat(data.propertyNames()).containsExactly("id", "uuid", "customerid", "transactionref", "paymentmode",
          "transactiondate", "accountnumber", "amount", "description", "createdAt", "updatedAt");
      assertThat(data.get("amount").isString()).isTrue();
      assertThat(data.get("amount").asString()).isEqualTo("1500.00");
      assertThat(data.get("transactionref").asString()).isEqualTo(ref);
      assertThat(stored(ref)).isEqualTo(1);
    }

    @Test
    void refusesASignatureMadeWithAnotherSecret() {
      String account = account();
      organisationWith(account, null);
      String ref = ref();
      String body = notification(ref, account, "10");

      TestHttp.Response response =
          sendNotification(body, signature(SECRET + "x", Instant.now().getEpochSecond(), body));

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo("{\"status\":401,\"message\":\"invalid or missing X-Lipa-Signature "
          + "signature\",\"data\":null}");
      assertThat(stored(ref)).isZero();
    }

    @Test
    void refusesAStaleTimestamp() {
      String account = account();
      organisationWith(account, null);
      String ref = ref();
      String body = notification(ref, account, "10");

      TestHttp.Response response =
          sendNotification(body, signature(SECRET, Instant.now().getEpochSecond() - 360, body));

      assertThat(response.status()).isEqualTo(401);
      assertThat(stored(ref)).isZero();
    }

    @Test
    void refusesATamperedBody() {
      String account = account();
      organisationWith(account, null);
      String ref = ref();
      String signed = notification(ref, account, "10");

      TestHttp.Response response = sendNotification(notification(ref, account, "10000"),
          signature(SECRET, Instant.now().getEpochSecond(), signed));

      assertThat(response.status()).isEqualTo(401);
      assertThat(stored(ref)).isZero();
    }

    @Test
    void refusesARequestWithoutSignatureAndAnUnknownBank() {
      String body = notification(ref(), account(), "10");

      assertThat(sendNotification(body, null).status()).isEqualTo(401);
      assertThat(http().postJson("/api/v1/banks/nobank/notifications", body,
          Map.of("X-Lipa-Signature", signature(SECRET, Instant.now().getEpochSecond(), body))).status())
          .isEqualTo(401);
    }

    @Test
    void storesARepeatedTransactionrefOnceAndAnswers200WithTheSameRecord() {
      String account = account();
      organisationWith(account, null);
      String ref = ref();
      String first = signedNotify(notification(ref, account, "250")).json().get("data").get("uuid").asString();

      TestHttp.Response again = signedNotify(notification(ref, account, "250.00"));

      assertThat(again.status()).isEqualTo(200);
      assertThat(again.json().get("message").asString()).isEqualTo("Bank collection already received");
      assertThat(again.json().get("data").get("uuid").asString()).isEqualTo(first);
      assertThat(stored(ref)).isEqualTo(1);
    }

    @Test
    void storesConcurrentRepeatsOnce() throws Exception {
      String account = account();
      organisationWith(account, null);
      String ref = ref();
      String body = notification(ref, account, "75");
      List<Future<Integer>> answers = new ArrayList<>();
      try (ExecutorService pool = Executors.newFixedThreadPool(10)) {
        for (int i = 0; i < 10; i++) {
          answers.add(pool.submit((Callable<Integer>) () -> signedNotify(body).status()));
        }
      }

      List<Integer> statuses = new ArrayList<>();
      for (Future<Integer> answer : answers) {
        statuses.add(answer.get());
      }
      assertThat(statuses).containsOnly(200, 201).containsOnlyOnce(201);
      assertThat(stored(ref)).isEqualTo(1);
    }

    @Test
    void refusesARepeatedTransactionrefWithAnotherAmount() {
      String account = account();
      organisationWith(account, null);
      String ref = ref();
      signedNotify(notification(ref, account, "250"));

      TestHttp.Response response = signedNotify(notification(ref, account, "251"));

      assertThat(response.status()).isEqualTo(409);
      assertThat(stored(ref)).isEqualTo(1);
    }

    @Test
    void refusesAnAccountNoOrganisationHoldsWith422() {
      String ref = ref();

      TestHttp.Response response = signedNotify(notification(ref, account(), "10"));

      assertThat(response.status()).isEqualTo(422);
      assertThat(response.json().get("status").asInt()).isEqualTo(422);
      assertThat(response.json().get("errors").propertyNames()).containsExactly("accountnumber");
      assertThat(stored(ref)).isZero();
    }

    static Stream<Arguments> invalidFields() {
      return Stream.of(
          Arguments.of(named("amount \"abc\"", "\"amount\":\"abc\""), "amount"),
          Arguments.of(named("amount 0", "\"amount\":0"), "amount"),
          Arguments.of(named("amount 1.234", "\"amount\":1.234"), "amount"),
          Arguments.of(named("accountnumber with letters", "\"accountnumber\":\"12AB5678\""), "accountnumber"),
          Arguments.of(named("transactiondate 01/06/2025", "\"transactiondate\":\"01/06/2025\""), "transactiondate"),
          Arguments.of(named("transactiondate 2025-02-30", "\"transactiondate\":\"2025-02-30\""), "transactiondate"),
          Arguments.of(named("transactionref blank", "\"transactionref\":\" \""), "transactionref"),
          Arguments.of(named("description of 256 characters", "\"description\":\"" + "d".repeat(256) + "\""),
              "description"));
    }

    @ParameterizedTest(name = "refuses {0} naming the field and storing nothing")
    @MethodSource("invalidFields")
    void refusesAnInvalidField(String override, String field) {
      String account = account();
      String org = organisationWith(account, null);
      String body = replaceField(notification(ref(), account, "10"), override);

      TestHttp.Response response = signedNotify(body);

      assertThat(response.status()).as(response.body()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly(field);
      assertThat(database.getCollection(BankCollectionStore.COLLECTION)
          .countDocuments(Filters.eq("organisationId", org))).isZero();
    }

    static String replaceField(String body, String override) {
      String name = override.substring(0, override.indexOf(':'));
      return body.replaceAll(java.util.regex.Pattern.quote(name) + ":(\"[^\"]*\"|[^,}]*)",
          java.util.regex.Matcher.quoteReplacement(override));
    }
  }

  @Nested
  class Events {

    @Test
    void emitsTheReceivedEventAndACallbackWhenTheOrganisationHasACollectionCallbackUrl() {
      String account = account();
      String org = organisationWith(account, "https://merchant.example/bank");

      JsonNode data = signedNotify(notification(ref(), account, "\"99.50\"")).json().get("data");
      String uuid = data.get("uuid").asString();

      await().atMost(Duration.ofSeconds(20)).until(() -> !TopicRecorder.records(Topics.COLLECTIONS, uuid).isEmpty()
          && !TopicRecorder.records(Topics.CALLBACKS, uuid).isEmpty());
      JsonNode received = JSON.readTree(TopicRecorder.records(Topics.COLLECTIONS, uuid).get(0).value());
      assertThat(received.get("type").asString()).isEqualTo("bank.collection.received");
      assertThat(received.get("organisationId").asString()).isEqualTo(org);
      assertThat(received.get("data").propertyNames()).containsExactly("requestId", "source", "transactionref",
          "accountnumber", "amount", "transactiondate", "customerid", "paymentmode", "description");
      assertThat(received.get("data").get("source").asString()).isEqualTo(BANK);
      JsonNode callback = JSON.readTree(TopicRecorder.records(Topics.CALLBACKS, uuid).get(0).value());
      assertThat(callback.get("type").asString()).isEqualTo("callback.requested");
      assertThat(callback.get("data").get("kind").asString()).isEqualTo("bank");
      assertThat(callback.get("data").get("url").asString()).isEqualTo("https://merchant.example/bank");
      assertThat(callback.get("data").get("requestId").asString()).isEqualTo(uuid);
      assertThat(callback.get("data").get("body")).isEqualTo(data);
    }

    @Test
    void requestsNoCallbackWithoutACollectionCallbackUrl() {
      String account = account();
      organisationWith(account, null);

      String uuid = signedNotify(notification(ref(), account, "10")).json().get("data").get("uuid").asString();

      await().atMost(Duration.ofSeconds(20)).until(() -> !TopicRecorder.records(Topics.COLLECTIONS, uuid).isEmpty());
      assertThat(PublishedRecords.all(Topics.CALLBACKS, uuid, database.getCollection(BankCollectionStore.COLLECTION),
          uuid)).isEmpty();
    }
  }

  /**
   * Pins the shape (field names and BSON types, as the store holds them) of a stored bank collection: data written by
   * one release is read by the next. The outbox's own fields are pinned in common.
   */
  @Nested
  class StoredDocument {

    @Test
    void aPartnersDepositWithTheOrganisationsCallback() {
      String account = account();
      organisationWith(account, "https://merchant.example/bank");
      String uuid = signedNotify(notification(ref(), account, "\"99.50\"")).json().get("data").get("uuid")
          .asString();

      StoredShape.assertShape(StoredShape.stored(database.getCollection("bank_collections"),
          Filters.eq("_id", uuid)), """
          _id: string
          accountnumber: string
          amount: decimal128
          callbackId: string
          callbackUrl: string
          createdAt: date_time
          customerid: string
          description: string
          id: int64
          organisationId: string
          paymentmode: string
          source: string
          transactionKey: string
          transactiondate: string
          transactionref: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }

    @Test
    void aSimulatedDepositWithoutACallback() {
      String account = account();
      String org = organisationWith(account, null);
      String uuid = http().postJson(SIMULATE, """
          {"accountnumber":"%s","amount":1500,"customerid":"CUST-1","description":"Test deposit"}"""
          .formatted(account), as(org)).json().get("data").get("uuid").asString();

      StoredShape.assertShape(StoredShape.stored(database.getCollection("bank_collections"),
          Filters.eq("_id", uuid)), """
          _id: string
          accountnumber: string
          amount: decimal128
          callbackId: null
          callbackUrl: null
          createdAt: date_time
          customerid: string
          description: string
          id: int64
          organisationId: string
          paymentmode: string
          source: string
          transactionKey: string
          transactiondate: string
          transactionref: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }
  }

  @Nested
  class Simulate {

    @Test
    void simulatesADepositToOneOfTheCallersAccountsWithTheSpecRecord() {
      String account = account();
      String org = organisationWith(account, null);

      TestHttp.Response response = http().postJson(SIMULATE, """
          {"accountnumber":"%s","amount":1500,"customerid":"CUST-1","description":"Test deposit"}"""
          .formatted(account), as(org));

      assertThat(response.status()).as(response.body()).isEqualTo(201);
      assertThat(response.json().propertyNames()).containsExactly("status", "message", "data");
      JsonNode data = response.json().get("data");
      assertThat(data.propertyNames()).containsExactly("id", "uuid", "customerid", "transactionref", "paymentmode",
          "transactiondate", "accountnumber", "amount", "description", "organisation", "createdAt", "updatedAt");
      assertThat(data.get("id").isIntegralNumber()).isTrue();
      assertThat(data.get("amount").isString()).isTrue();
      assertThat(data.get("amount").asString()).isEqualTo("1500.00");
      assertThat(data.get("transactiondate").asString())
          .isEqualTo(LocalDate.now(ZoneId.of("Africa/Nairobi")).toString());
      assertThat(data.get("paymentmode").asString()).isEqualTo("SANDBOX");
      assertThat(data.get("createdAt").asString()).matches(RECORD_TIME);
      JsonNode organisation = data.get("organisation");
      assertThat(organisation.propertyNames()).containsExactly("uuid", "name", "phoneNumber", "environment",
          "collectionCallbackUrl", "parentOrganisation", "parent");
      assertThat(organisation.get("uuid").asString()).isEqualTo(org);
      assertThat(organisation.get("name").asString()).isEqualTo("Duka Kuu");
      assertThat(organisation.get("parent").asBoolean()).isTrue();
      assertThat(organisation.get("parentOrganisation").isNull()).isTrue();
    }

    @Test
    void refusesAnotherOrganisationsAccountExactlyLikeAnUnknownOne() {
      String othersAccount = account();
      organisationWith(othersAccount, null);
      String caller = organisationWith(account(), null);

      TestHttp.Response others = http().postJson(SIMULATE,
          "{\"accountnumber\":\"%s\",\"amount\":10}".formatted(othersAccount), as(caller));
      TestHttp.Response unknown = http().postJson(SIMULATE,
          "{\"accountnumber\":\"%s\",\"amount\":10}".formatted(account()), as(caller));

      assertThat(others.status()).isEqualTo(404);
      assertThat(others.body()).isEqualTo(unknown.body());
      assertThat(database.getCollection(BankCollectionStore.COLLECTION)
          .countDocuments(Filters.eq("accountnumber", othersAccount))).isZero();
    }

    @Test
    void answersARepeatedTransactionrefWithTheFirstRecord() {
      String account = account();
      String org = organisationWith(account, null);
      String body = "{\"accountnumber\":\"%s\",\"amount\":10,\"transactionref\":\"MY-REF-1\"}".formatted(account);
      String first = http().postJson(SIMULATE, body, as(org)).json().get("data").get("uuid").asString();

      TestHttp.Response again = http().postJson(SIMULATE, body, as(org));

      assertThat(again.status()).isEqualTo(200);
      assertThat(again.json().get("data").get("uuid").asString()).isEqualTo(first);
    }

    @Test
    void needsTheCallersToken() {
      assertThat(http().postJson(SIMULATE, "{}", Map.of()).status()).isEqualTo(401);
    }

    @Test
    void namesMissingFields() {
      TestHttp.Response response = http().postJson(SIMULATE, "{}", as(newOrganisation()));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactlyInAnyOrder("accountnumber", "amount");
    }
  }

  @Nested
  class Single {

    String simulated(String org, String account) {
      return http().postJson(SIMULATE, "{\"accountnumber\":\"%s\",\"amount\":10}".formatted(account), as(org))
          .json().get("data").get("uuid").asString();
    }

    @Test
    void returnsTheCallersRecord() {
      String account = account();
      String org = organisationWith(account, "https://merchant.example/bank");
      String uuid = simulated(org, account);

      TestHttp.Response response = http().get(SINGLE + "?requestId=" + uuid + "&unknown=1", as(org));

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("data").get("uuid").asString()).isEqualTo(uuid);
      assertThat(response.json().get("data").get("organisation").get("collectionCallbackUrl").asString())
          .isEqualTo("https://merchant.example/bank");
    }

    @Test
    void answers404ForAnotherOrganisationsRecordAndForAnUnknownOne() {
      String account = account();
      String uuid = simulated(organisationWith(account, null), account);
      String other = newOrganisation();

      TestHttp.Response others = http().get(SINGLE + "?requestId=" + uuid, as(other));
      TestHttp.Response unknown = http().get(SINGLE + "?requestId=" + UUID.randomUUID(), as(other));

      assertThat(others.status()).isEqualTo(404);
      assertThat(others.body()).isEqualTo(unknown.body())
          .isEqualTo("{\"status\":404,\"message\":\"Bank collection not found\",\"data\":null}");
    }

    @Test
    void namesAMissingRequestId() {
      TestHttp.Response response = http().get(SINGLE, as(newOrganisation()));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly("requestId");
    }
  }

  @Nested
  class All {

    @Test
    void listsOnlyTheCallersRecordsNewestFirstWithPaging() {
      String account = account();
      String org = organisationWith(account, null);
      List<String> uuids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        uuids.add(http().postJson(SIMULATE, "{\"accountnumber\":\"%s\",\"amount\":%d}".formatted(account, i + 1),
            as(org)).json().get("data").get("uuid").asString());
      }
      String otherAccount = account();
      http().postJson(SIMULATE, "{\"accountnumber\":\"%s\",\"amount\":5}".formatted(otherAccount),
          as(organisationWith(otherAccount, null)));

      JsonNode all = http().get(ALL, as(org)).json();
      JsonNode page = http().get(ALL + "?size=2&page=1", as(org)).json();

      assertThat(all.get("status").asInt()).isEqualTo(200);
      assertThat(all.get("message").asString()).isEqualTo("OK");
      assertThat(all.get("data").values()).extracting(r -> r.get("uuid").asString())
          .containsExactly(uuids.get(2), uuids.get(1), uuids.get(0));
      assertThat(page.get("data").values()).extracting(r -> r.get("uuid").asString())
          .containsExactly(uuids.get(0));
    }

    @Test
    void filtersByCreationDate() {
      String account = account();
      String org = organisationWith(account, null);
      http().postJson(SIMULATE, "{\"accountnumber\":\"%s\",\"amount\":1}".formatted(account), as(org));
      LocalDate today = LocalDate.now(ZoneId.of("Africa/Nairobi"));

      assertThat(http().get(ALL + "?from=" + today + "&to=" + today, as(org)).json().get("data").size())
          .isEqualTo(1);
      assertThat(http().get(ALL + "?from=" + today.plusDays(1), as(org)).json().get("data").size()).isZero();
      assertThat(http().get(ALL + "?to=" + today.minusDays(1), as(org)).json().get("data").size()).isZero();
    }

    @Test
    void namesInvalidParameters() {
      TestHttp.Response response = http().get(ALL + "?size=501&page=-1&from=yesterday", as(newOrganisation()));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactlyInAnyOrder("size", "page", "from");
    }
  }
}
