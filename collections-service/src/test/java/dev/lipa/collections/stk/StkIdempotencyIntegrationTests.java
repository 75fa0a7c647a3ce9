package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.TopicRecorder;
import dev.lipa.common.events.Topics;
import dev.lipa.common.idempotency.Attempt;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentRequest;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/** Repeats of {@code POST /stk/new}: by referenceId, by Idempotency-Key, one at a time and fifty at once. */
class StkIdempotencyIntegrationTests extends CollectionsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String REPLAYED = "Idempotent-Replayed";
  private static final int CONCURRENT = 50;

  @Autowired
  private IdempotencyKeys keys;

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  private static String withReference(String reference, String phone) {
    return body(phone).replace("{", "{\"referenceId\":\"" + reference + "\",");
  }

  private static Map<String, String> withKey(String organisationId, String key) {
    Map<String, String> headers = new HashMap<>(as(organisationId));
    headers.put("Idempotency-Key", key);
    return headers;
  }

  private long pushesOf(String organisationId) {
    return database.getCollection(StkPushStore.COLLECTION).countDocuments(Filters.eq("organisationId", organisationId));
  }

  private long keysOf(String organisationId) {
    return database.getCollection(IdempotencyKeys.COLLECTION)
        .countDocuments(Filters.eq("organisationId", organisationId));
  }

  private static String requestIdOf(TestHttp.Response response) {
    return response.json().get("data").get("requestId").stringValue();
  }

  @Nested
  class RepeatedReferenceId {

    @Test
    void theSameBodyGetsTheOriginal201AndCreatesNothing() {
      String org = newOrganisation();
      String body = withReference("order-1", "0712345678");
      TestHttp.Response first = http().postJson(NEW, body, as(org));

      // whitespace and key order do not make another request
      TestHttp.Response again = http().postJson(NEW, JSON.writeValueAsString(JSON.readTree(body)).replace(",", " , "),
          as(org));

      assertThat(again.status()).isEqualTo(201);
      assertThat(again.json()).isEqualTo(first.json());
      assertThat(again.headers().firstValue(REPLAYED)).hasValue("true");
      assertThat(first.headers().firstValue(REPLAYED)).isEmpty();
      assertThat(pushesOf(org)).isEqualTo(1);
    }

    @Test
    void aDifferentBodyGets409NamingTheReferenceIdAndCreatesNothing() {
      String org = newOrganisation();
      create(org, withReference("order-1", "0712345678"));

      TestHttp.Response other = http().postJson(NEW, withReference("order-1", "0722345678"), as(org));

      assertThat(other.status()).isEqualTo(409);
      assertThat(other.json().get("status").intValue()).isEqualTo(409);
      assertThat(other.json().get("message").stringValue())
          .isEqualTo("referenceId order-1 was already used with a different request body");
      assertThat(pushesOf(org)).isEqualTo(1);
    }

    @Test
    void anotherOrganisationsReferenceIdIsNoRepeat() {
      String body = withReference("shared", "0712345678");
      String first = create(newOrganisation(), body);

      assertThat(create(newOrganisation(), body)).isNotEqualTo(first);
    }
  }

  @Nested
  class IdempotencyKey {

    @Test
    void replaysTheStoredResponseForTheSameKeyAndBody() {
      String org = newOrganisation();
      String key = UUID.randomUUID().toString();
      TestHttp.Response first = http().postJson(NEW, body("0712345678"), withKey(org, key));

      TestHttp.Response again = http().postJson(NEW, body("0712345678"), withKey(org, key));

      assertThat(first.status()).isEqualTo(201);
      assertThat(again.status()).isEqualTo(201);
      assertThat(again.body()).isEqualTo(first.body());
      assertThat(again.headers().firstValue(REPLAYED)).hasValue("true");
      assertThat(pushesOf(org)).isEqualTo(1);
      var stored = database.getCollection(IdempotencyKeys.COLLECTION).find(Filters.eq("organisationId", org)).first();
      assertThat(stored.getString("state")).isEqualTo("COMPLETED");
      assertThat(stored.getInteger("status")).isEqualTo(201);
      assertThat(stored.getDate("expiresAt").toInstant())
          .isAfterOrEqualTo(stored.getDate("createdAt").toInstant().plus(Duration.ofHours(24)));
    }

    @Test
    void refusesTheSameKeyWithADifferentBodyWith409() {
      String org = newOrganisation();
      String key = UUID.randomUUID().toString();
      http().postJson(NEW, body("0712345678"), withKey(org, key));

      TestHttp.Response other = http().postJson(NEW, body("0722345678"), withKey(org, key));

      assertThat(other.status()).isEqualTo(409);
      assertThat(other.json().get("message").stringValue())
          .isEqualTo("this Idempotency-Key was already used with a different request body");
      assertThat(pushesOf(org)).isEqualTo(1);
    }

    @Test
    void refusesARepeatWhileTheFirstIsInFlightWith409() {
      String org = newOrganisation();
      String key = UUID.randomUUID().toString();
      String body = body("0712345678");
      // a request that has claimed the key and not finished yet
      Attempt held = keys.begin(new IdempotentRequest(OrganisationId.of(org), "POST /api/sandbox/v1/stk/new", key,
          RequestFingerprint.of(JSON.readTree(body))));
      assertThat(held).isInstanceOf(Attempt.Claimed.class);

      TestHttp.Response repeat = http().postJson(NEW, body, withKey(org, key));

      assertThat(repeat.status()).isEqualTo(409);
      assertThat(repeat.json().get("message").stringValue())
          .isEqualTo("a request with this Idempotency-Key is still being processed");
      assertThat(pushesOf(org)).isZero();
    }

    @Test
    void scopesKeysByOrganisation() {
      String key = UUID.randomUUID().toString();
      String first = requestIdOf(http().postJson(NEW, body("0712345678"), withKey(newOrganisation(), key)));

      TestHttp.Response other = http().postJson(NEW, body("0722345678"), withKey(newOrganisation(), key));

      assertThat(other.status()).isEqualTo(201);
      assertThat(requestIdOf(other)).isNotEqualTo(first);
    }

    @Test
    void refusesAKeyLongerThan255CharactersNamingTheHeaderAndWritesNothing() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(NEW, body("0712345678"), withKey(org, "k".repeat(256)));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly("Idempotency-Key");
      assertThat(pushesOf(org)).isZero();
      assertThat(keysOf(org)).isZero();
    }
  }

  @Nested
  class Refusals {

    @Test
    void anInvalidBodyWithAKeyWritesNeitherPushNorKey() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(NEW, body("0201234567"), withKey(org, "key-1"));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly("phoneNumber");
      assertThat(pushesOf(org)).isZero();
      assertThat(keysOf(org)).isZero();
    }

    @Test
    void aConflictingReferenceIdUnderAKeyKeepsNoKeySoTheClientCanCorrectIt() {
      String org = newOrganisation();
      create(org, withReference("order-9", "0712345678"));

      TestHttp.Response conflict = http().postJson(NEW, withReference("order-9", "0722345678"),
          withKey(org, "key-9"));
      TestHttp.Response corrected = http().postJson(NEW, withReference("order-10", "0722345678"),
          withKey(org, "key-9"));

      assertThat(conflict.status()).isEqualTo(409);
      assertThat(corrected.status()).isEqualTo(201);
      assertThat(pushesOf(org)).isEqualTo(2);
      assertThat(keysOf(org)).isEqualTo(1);
    }

    @Test
    void refusesABlankKeyNamingTheHeader() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(NEW, body("0712345678"), withKey(org, " "));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").get("Idempotency-Key").get(0).stringValue())
          .isEqualTo("Idempotency-Key must not be blank");
      assertThat(pushesOf(org)).isZero();
    }
  }

  @Nested
  class FiftyAtOnce {

    private List<TestHttp.Response> fire(String body, Map<String, String> headers) throws Exception {
      ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<TestHttp.Response>> futures = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
          futures.add(pool.submit(() -> {
            start.await();
            return http().postJson(NEW, body, headers);
          }));
        }
        start.countDown();
        List<TestHttp.Response> responses = new ArrayList<>();
        for (Future<TestHttp.Response> future : futures) {
          responses.add(future.get());
        }
        return responses;
      } finally {
        pool.shutdownNow();
      }
    }

    /** Exactly one stk.accepted for the push, and nothing else for it, after the broker has had time to show more. */
    private void assertOneAcceptedEvent(String requestId) {
      await().atMost(Duration.ofSeconds(30)).until(() -> accepted(requestId) >= 1);
      await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true);
      assertThat(accepted(requestId)).isEqualTo(1);
    }

    private long accepted(String requestId) {
      return TopicRecorder.records(Topics.COLLECTIONS, requestId).stream()
          .filter(r -> "stk.accepted".equals(JSON.readTree(r.value()).get("type").stringValue())).count();
    }

    @Test
    void withOneIdempotencyKeyCreateOnePushAndOneRailRequest() throws Exception {
      String org = newOrganisation();

      List<TestHttp.Response> responses = fire(body("254708374149"), withKey(org, UUID.randomUUID().toString()));

      Map<Integer, List<TestHttp.Response>> byStatus = responses.stream()
          .collect(Collectors.groupingBy(TestHttp.Response::status));
      assertThat(byStatus.keySet()).isSubsetOf(201, 409);
      assertThat(byStatus.get(201)).isNotEmpty();
      Set<String> requestIds = byStatus.get(201).stream().map(StkIdempotencyIntegrationTests::requestIdOf)
          .collect(Collectors.toSet());
      assertThat(requestIds).hasSize(1);
      assertThat(byStatus.getOrDefault(409, List.of())).allSatisfy(r -> assertThat(r.json().get("message")
          .stringValue()).isEqualTo("a request with this Idempotency-Key is still being processed"));
      assertThat(pushesOf(org)).isEqualTo(1);
      assertOneAcceptedEvent(requestIds.iterator().next());
    }

    @Test
    void withOneReferenceIdCreateOnePushAndAnswerAllWithTheOriginal201() throws Exception {
      String org = newOrganisation();

      List<TestHttp.Response> responses = fire(withReference("burst-1", "254708374149"), as(org));

      assertThat(responses).extracting(TestHttp.Response::status).containsOnly(201);
      Set<String> requestIds = responses.stream().map(StkIdempotencyIntegrationTests::requestIdOf)
          .collect(Collectors.toSet());
      assertThat(requestIds).hasSize(1);
      assertThat(responses.stream().filter(r -> r.headers().firstValue(REPLAYED).isEmpty())).hasSize(1);
      assertThat(pushesOf(org)).isEqualTo(1);
      assertOneAcceptedEvent(requestIds.iterator().next());
    }
  }
}
