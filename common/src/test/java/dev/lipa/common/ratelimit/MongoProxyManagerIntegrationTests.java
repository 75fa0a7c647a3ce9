package dev.lipa.common.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.common.testsupport.ManualTimeMeter;
import dev.lipa.common.testsupport.SharedInfra;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.EstimationProbe;
import io.github.bucket4j.distributed.BucketProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The MongoDB back end of Bucket4j against the wire server of {@link SharedInfra}, as two replicas would use it. */
class MongoProxyManagerIntegrationTests {

  private static MongoClient mongo;

  private final ManualTimeMeter clock = new ManualTimeMeter();
  private MongoCollection<Document> collection;

  @BeforeAll
  static void connect() {
    mongo = MongoClients.create(SharedInfra.mongoUri());
  }

  @AfterAll
  static void disconnect() {
    mongo.close();
  }

  @BeforeEach
  void freshCollection() {
    collection = mongo.getDatabase("rate-limit-tests").getCollection("buckets-" + UUID.randomUUID());
  }

  private MongoProxyManager replica() {
    return new MongoProxyManager(collection, Duration.ZERO, clock);
  }

  private static BucketConfiguration perHour(long tokens) {
    return Limit.configuration(List.of(Limit.perPeriod(tokens, Duration.ofHours(1))));
  }

  @Nested
  class Exactness {

    @Test
    void twoReplicasWithManyThreadsHandOutExactlyTheBucketsTokens() throws Exception {
      List<MongoProxyManager> replicas = List.of(replica(), replica());
      AtomicLong granted = new AtomicLong();
      List<Callable<Void>> attempts = new ArrayList<>();
      for (int thread = 0; thread < 16; thread++) {
        MongoProxyManager replica = replicas.get(thread % 2);
        attempts.add(() -> {
          BucketProxy bucket = replica.builder().build("shared-key", () -> perHour(60));
          for (int i = 0; i < 10; i++) {
            if (bucket.tryConsume(1)) {
              granted.incrementAndGet();
            }
          }
          return null;
        });
      }
      ExecutorService threads = Executors.newFixedThreadPool(16);
      try {
        for (Future<Void> done : threads.invokeAll(attempts)) {
          done.get();
        }
      } finally {
        threads.shutdownNow();
      }

      // 160 attempts on both replicas at once against a bucket of 60 whose clock stands still: exactly 60 pass
      assertThat(granted.get()).isEqualTo(60);
      assertThat(collection.countDocuments()).isEqualTo(1);
      assertThat(replicas.get(1).builder().build("shared-key", () -> perHour(60)).getAvailableTokens()).isZero();
    }

    @Test
    void aReplicaSeesWhatTheOtherConsumedAndTheRefillBothSee() {
      BucketProxy first = replica().builder().build("k", () -> perHour(2));
      BucketProxy second = replica().builder().build("k", () -> perHour(2));
      assertThat(first.tryConsume(2)).isTrue();
      assertThat(second.tryConsume(1)).isFalse();

      clock.advance(Duration.ofMinutes(30)); // one token back at 2 an hour

      assertThat(second.tryConsume(1)).isTrue();
      assertThat(first.tryConsume(1)).isFalse();
    }
  }

  @Nested
  class Estimate {

    @Test
    void readsStatesOfSeveralBucketsInOneGoAndWritesNothing() {
      MongoProxyManager replica = replica();
      replica.builder().build("empty", () -> perHour(1)).tryConsume(1);
      replica.builder().build("half", () -> perHour(2)).tryConsume(1);
      Document before = collection.find(Filters.eq("_id", "empty")).first();

      Map<String, EstimationProbe> probes = replica.estimate(List.of("empty", "half", "never-used"), 1);

      assertThat(probes).containsOnlyKeys("empty", "half");
      assertThat(probes.get("empty").canBeConsumed()).isFalse();
      assertThat(Duration.ofNanos(probes.get("empty").getNanosToWaitForRefill())).isEqualTo(Duration.ofHours(1));
      assertThat(probes.get("half").canBeConsumed()).isTrue();
      assertThat(collection.countDocuments(Filters.eq("_id", "never-used"))).isZero();
      assertThat(collection.find(Filters.eq("_id", "empty")).first()).isEqualTo(before);
    }
  }

  @Nested
  class Expiry {

    @Test
    void aBucketExpiresWhenItWouldBeFullAgainAndTheSweepDeletesOnlyExpiredOnes() {
      MongoProxyManager replica = replica();
      replica.builder().build("short", () -> Limit.configuration(List.of(Limit.perPeriod(1, Duration.ofMinutes(1)))))
          .tryConsume(1);
      replica.builder().build("long", () -> perHour(1)).tryConsume(1);

      clock.advance(Duration.ofMinutes(2));

      assertThat(replica.removeExpired(100)).isEqualTo(1);
      assertThat(collection.find().map(d -> d.getString("_id")).into(new ArrayList<>())).containsExactly("long");
    }

    @Test
    void aSweptBucketStartsFull() {
      MongoProxyManager replica = replica();
      BucketProxy bucket = replica.builder().build("k", () -> perHour(3));
      bucket.tryConsume(3);
      clock.advance(Duration.ofHours(2));
      replica.removeExpired(100);

      assertThat(bucket.getAvailableTokens()).isEqualTo(3);
    }
  }
}
