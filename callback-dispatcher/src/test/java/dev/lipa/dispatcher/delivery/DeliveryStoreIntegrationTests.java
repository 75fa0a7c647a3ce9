package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.dispatcher.delivery.DeliveryStore.Intake;
import dev.lipa.dispatcher.delivery.DeliveryStore.Lease;
import dev.lipa.dispatcher.delivery.DeliveryStore.Stored;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The stores' side of the hot path (the intake's and the work queue's) against the real Mongo wire server: a poll's
 * requests stored with one bulk write, leased at intake exactly as a claim leases, redelivered records changing
 * nothing, and an attempt's result written with one statement. Each test uses a database of its own.
 */
class DeliveryStoreIntegrationTests {

  private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);

  /** The write statements sent, as "command:statements" (an update command with 3 upserts is "update:3"). */
  private final List<String> writes = new CopyOnWriteArrayList<>();
  private final String database = "lipa-dispatcher-store-" + UUID.randomUUID().toString().substring(0, 8);
  private final MongoClient client = MongoClients.create(MongoClientSettings.builder()
      .applyConnectionString(new ConnectionString(SharedInfra.mongoUri()))
      .addCommandListener(new CommandListener() {
        @Override
        public void commandStarted(CommandStartedEvent event) {
          switch (event.getCommandName()) {
            case "insert" -> writes.add("insert:" + event.getCommand().getArray("documents").size());
            case "update" -> writes.add("update:" + event.getCommand().getArray("updates").size());
            case "findAndModify", "delete" -> writes.add(event.getCommandName());
            default -> {
            }
          }
        }
      })
      .build());
  private final DeliveryStore store = new DeliveryStore(client, database);
  private final DeliveryQueueStore queue = new DeliveryQueueStore(client, database,
      new Binder(new MapConfigurationPropertySource(Map.of())).bindOrCreate("lipa.dispatcher",
          DispatcherProperties.class));

  @AfterEach
  void close() {
    client.close();
  }

  private MongoCollection<Document> deliveries() {
    return client.getDatabase(database).getCollection(DeliveryStore.COLLECTION);
  }

  private Document delivery(String callbackId) {
    return deliveries().find(new Document("_id", callbackId)).first();
  }

  private static CallbackRequest request(OrganisationId organisationId) {
    String requestId = UUID.randomUUID().toString();
    return new CallbackRequest(organisationId, requestId, UUID.randomUUID().toString(),
        "http://127.0.0.1:9/callbacks", "{\"requestId\":\"" + requestId + "\"}", "stk", UUID.randomUUID().toString());
  }

  private static CallbackRequest request() {
    return request(OrganisationId.of(UUID.randomUUID().toString()));
  }

  private static Lease lease(Instant until) {
    return new Lease(UUID.randomUUID().toString(), until);
  }

  @Nested
  class StoringAPoll {

    @Test
    void storesAPollsRequestsWithOneWriteStatementPerRequestInOneCommand() {
      List<Intake> poll = List.of(new Intake(request(), NOW, NOW, lease(NOW.plusSeconds(30))),
          new Intake(request(), NOW, NOW, lease(NOW.plusSeconds(30))), new Intake(request(), NOW, NOW, null));
      writes.clear();

      assertThat(store.insertAll(poll)).containsExactly(Stored.CREATED, Stored.CREATED, Stored.CREATED);

      assertThat(writes).containsExactly("update:3");
    }

    @Test
    void writesALeasedDeliveryWithTheFieldsAClaimWrites() {
      CallbackRequest request = request();
      Lease lease = lease(NOW.plusSeconds(30));

      store.insertAll(List.of(new Intake(request, NOW, NOW, lease)));

      Document stored = delivery(request.callbackId());
      assertThat(stored.getString("status")).isEqualTo("PENDING");
      assertThat(stored.getString("leaseToken")).isEqualTo(lease.token());
      assertThat(stored.getDate("leaseUntil").toInstant()).isEqualTo(lease.until());
      assertThat(stored.getInteger("attempts")).isZero();
      assertThat(stored.getString("organisationId")).isEqualTo(request.organisationId().value());
      assertThat(stored.getString("body")).isEqualTo(request.body());
    }

    @Test
    void leavesAnUnleasedDeliveryDueForThePoller() {
      CallbackRequest request = request();
      Instant due = NOW.plusSeconds(1);

      store.insertAll(List.of(new Intake(request, NOW, due, null)));

      Document stored = delivery(request.callbackId());
      assertThat(stored.get("leaseToken")).isNull();
      assertThat(stored.getDate("nextAttemptAt").toInstant()).isEqualTo(due);
      assertThat(queue.findDue(NOW, 10)).extracting(DeliveryQueueStore.Due::callbackId)
          .doesNotContain(request.callbackId());
      assertThat(queue.findDue(due, 10)).extracting(DeliveryQueueStore.Due::callbackId)
          .contains(request.callbackId());
    }

    @Test
    void storesTheSameRecordTwiceInOnePollOnce() {
      CallbackRequest request = request();
      Lease first = lease(NOW.plusSeconds(30));

      List<Stored> stored = store.insertAll(List.of(new Intake(request, NOW, NOW, first),
          new Intake(request, NOW, NOW, lease(NOW.plusSeconds(30)))));

      assertThat(stored).containsExactly(Stored.CREATED, Stored.EXISTS);
      assertThat(deliveries().countDocuments(new Document("_id", request.callbackId()))).isEqualTo(1);
      assertThat(delivery(request.callbackId()).getString("leaseToken")).isEqualTo(first.token());
    }

    @Test
    void neverStealsOrResetsTheLeaseOfADeliveryThatExists() {
      CallbackRequest request = request();
      Lease held = lease(NOW.plusSeconds(30));
      store.insertAll(List.of(new Intake(request, NOW, NOW, held)));

      // the same record read again (a rebalance, a retried poll) by a dispatcher that would lease it to itself
      Instant later = NOW.plusSeconds(5);
      assertThat(store.insertAll(List.of(new Intake(request, later, later, lease(later.plusSeconds(30))))))
          .containsExactly(Stored.EXISTS);

      Document stored = delivery(request.callbackId());
      assertThat(stored.getString("leaseToken")).isEqualTo(held.token());
      assertThat(stored.getDate("leaseUntil").toInstant()).isEqualTo(held.until());
      assertThat(stored.getDate("createdAt").toInstant()).isEqualTo(NOW);
    }

    @Test
    void neverResetsADeliveredCallback() {
      CallbackRequest request = request();
      Lease lease = lease(NOW.plusSeconds(30));
      store.insertAll(List.of(new Intake(request, NOW, NOW, lease)));
      Delivery delivery = Delivery.accepted(request, lease.token());
      queue.complete(delivery, delivery.afterAttempt(AttemptOutcome.answered(200, 5, "ok"), NOW, NOW, null));

      assertThat(store.insertAll(List.of(new Intake(request, NOW, NOW, null)))).containsExactly(Stored.EXISTS);

      Document stored = delivery(request.callbackId());
      assertThat(stored.getString("status")).isEqualTo("DELIVERED");
      assertThat(stored.getInteger("attempts")).isEqualTo(1);
      assertThat(stored.get("leaseToken")).isNull();
    }

    @Test
    void refusesACallbackIdOfAnotherOrganisationAndStoresTheRestOfThePoll() {
      CallbackRequest taken = request();
      store.insertAll(List.of(new Intake(taken, NOW, NOW, null)));
      CallbackRequest stranger = new CallbackRequest(OrganisationId.of(UUID.randomUUID().toString()), taken.requestId(),
          taken.callbackId(), taken.url(), "{\"other\":true}", "stk", UUID.randomUUID().toString());
      CallbackRequest next = request();

      List<Stored> stored = store.insertAll(List.of(new Intake(stranger, NOW, NOW, null),
          new Intake(next, NOW, NOW, null)));

      assertThat(stored).containsExactly(Stored.CONFLICT, Stored.CREATED);
      assertThat(delivery(taken.callbackId()).getString("organisationId")).isEqualTo(taken.organisationId().value());
      assertThat(delivery(next.callbackId())).isNotNull();
    }

    @Test
    void letsThePollerClaimAnIntakeLeaseOnlyOnceItExpired() {
      CallbackRequest request = request();
      Lease intakeLease = lease(NOW.plusSeconds(3));
      store.insertAll(List.of(new Intake(request, NOW, NOW, intakeLease)));

      assertThat(queue.findDue(NOW.plusSeconds(1), 10)).extracting(DeliveryQueueStore.Due::callbackId)
          .doesNotContain(request.callbackId());
      assertThat(queue.claim(request.callbackId(), NOW.plusSeconds(1), lease(NOW.plusSeconds(31)))).isEmpty();

      Instant afterExpiry = NOW.plusSeconds(4);
      assertThat(queue.findDue(afterExpiry, 10)).extracting(DeliveryQueueStore.Due::callbackId)
          .contains(request.callbackId());
      assertThat(queue.claim(request.callbackId(), afterExpiry, lease(afterExpiry.plusSeconds(30)))).isPresent();
    }
  }

  @Nested
  class Attempts {

    @Test
    void writesAnAttemptsResultWithOneStatement() {
      CallbackRequest request = request();
      Lease lease = lease(NOW.plusSeconds(30));
      store.insertAll(List.of(new Intake(request, NOW, NOW, lease)));
      Delivery delivery = Delivery.accepted(request, lease.token());
      RetrySchedule schedule = new RetrySchedule(List.of(Duration.ofSeconds(5)), 0,
          Duration.ofHours(1), new Random(1));
      writes.clear();

      assertThat(queue.complete(delivery,
          delivery.afterAttempt(AttemptOutcome.answered(500, 7, "boom"), NOW, NOW, schedule))).isTrue();

      assertThat(writes).containsExactly("update:1");
      Document stored = delivery(request.callbackId());
      assertThat(stored.getString("status")).isEqualTo("PENDING");
      assertThat(stored.getInteger("attempts")).isEqualTo(1);
      assertThat(stored.getDate("nextAttemptAt").toInstant()).isEqualTo(NOW.plusSeconds(5));
      assertThat(stored.get("leaseToken")).isNull();
      assertThat(stored.get("leaseUntil")).isNull();
      assertThat(stored.getList("attemptLog", Document.class)).singleElement()
          .satisfies(entry -> assertThat(entry.getInteger("statusCode")).isEqualTo(500));
    }
  }
}
