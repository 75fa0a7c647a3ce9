package dev.lipa.common.ratelimit;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Updates;
import io.github.bucket4j.EstimationProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import io.github.bucket4j.distributed.proxy.ExpiredEntriesCleaner;
import io.github.bucket4j.distributed.proxy.generic.compare_and_swap.AbstractCompareAndSwapBasedProxyManager;
import io.github.bucket4j.distributed.proxy.generic.compare_and_swap.AsyncCompareAndSwapOperation;
import io.github.bucket4j.distributed.proxy.generic.compare_and_swap.CompareAndSwapOperation;
import io.github.bucket4j.distributed.remote.CommandResult;
import io.github.bucket4j.distributed.remote.MutableBucketEntry;
import io.github.bucket4j.distributed.remote.RemoteBucketState;
import io.github.bucket4j.distributed.remote.commands.EstimateAbilityToConsumeCommand;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.bson.types.Binary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bucket4j's buckets in a MongoDB collection, so that every replica of a service (and every service on the same
 * database) shares one exact count: one document per bucket, {@code {_id: key, state: <Bucket4j's state bytes>,
 * expiresAt}}. Bucket4j has no MongoDB back end; this one plugs into its compare-and-swap extension point: Bucket4j
 * reads the state, runs its command on a copy and asks us to swap the old bytes for the new, which is an insert for a
 * new bucket (a duplicate key means another replica created it first) or a {@code findOneAndUpdate} whose filter holds
 * the old bytes (no match means another replica changed it first). Bucket4j then retries with the fresh state, so a
 * token is never handed out twice.
 *
 * <p>Idle buckets expire: each write sets {@code expiresAt} to when the bucket will be full again (plus a margin), from
 * which on it carries no information. A real MongoDB deletes them by the TTL index; the embedded store ignores TTL
 * indexes, so {@link #start} runs a sweep too ({@link #removeExpired}). A bucket past {@code expiresAt} that is still
 * there is simply full, so a late sweep changes nothing.
 *
 * <p>Synchronous only: every caller here is a servlet service on virtual threads.
 */
public class MongoProxyManager extends AbstractCompareAndSwapBasedProxyManager<String>
    implements ExpiredEntriesCleaner, AutoCloseable {

  static final String STATE = "state";
  static final String EXPIRES_AT = "expiresAt";
  private static final Logger log = LoggerFactory.getLogger(MongoProxyManager.class);

  private final MongoCollection<Document> collection;
  private volatile ScheduledExecutorService sweeper;

  /**
   * @param keepAfterRefill how long a bucket is kept after it would be full again
   */
  public MongoProxyManager(MongoCollection<Document> collection, java.time.Duration keepAfterRefill) {
    this(collection, keepAfterRefill, TimeMeter.SYSTEM_MILLISECONDS);
  }

  /** With the clock that bucket states and expiry times are read from (every replica must use the same time). */
  public MongoProxyManager(MongoCollection<Document> collection, java.time.Duration keepAfterRefill, TimeMeter clock) {
    super(ClientSideConfig.getDefault().withClientClock(clock).withExpirationAfterWriteStrategy(
        ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(keepAfterRefill)));
    this.collection = collection;
    collection.createIndex(Indexes.ascending(EXPIRES_AT),
        new IndexOptions().name("rate_limit_bucket_expiry").expireAfter(0L, TimeUnit.SECONDS));
  }

  @Override
  protected CompareAndSwapOperation beginCompareAndSwapOperation(String key) {
    return new CompareAndSwapOperation() {
      @Override
      public Optional<byte[]> getStateData(Optional<Long> timeoutNanos) {
        return Optional.ofNullable(read(key));
      }

      @Override
      public boolean compareAndSwap(byte[] originalData, byte[] newData, RemoteBucketState newState,
          Optional<Long> timeoutNanos) {
        Date expiresAt = expiresAt(newState);
        if (originalData == null) {
          try {
            collection.insertOne(new Document("_id", key).append(STATE, new Binary(newData))
                .append(EXPIRES_AT, expiresAt));
            return true;
          } catch (MongoWriteException e) {
            if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
              return false; // another replica created the bucket first: Bucket4j retries on its state
            }
            throw e;
          }
        }
        return collection.findOneAndUpdate(
            Filters.and(Filters.eq("_id", key), Filters.eq(STATE, new Binary(originalData))),
            Updates.combine(Updates.set(STATE, new Binary(newData)), Updates.set(EXPIRES_AT, expiresAt)),
            new FindOneAndUpdateOptions().projection(Projections.include("_id"))) != null;
      }
    };
  }

  /**
   * Whether each of these buckets could give {@code tokens} now, from one query and without writing: Bucket4j's own
   * estimate run on the stored states. Buckets that do not exist (never used, or expired and swept) are absent from
   * the answer: they are full.
   */
  public Map<String, EstimationProbe> estimate(Collection<String> keys, long tokens) {
    Map<String, EstimationProbe> probes = new LinkedHashMap<>();
    long now = currentTimeNanos();
    for (Document document : collection.find(Filters.in("_id", keys))
        .projection(Projections.include(STATE))) {
      Binary state = document.get(STATE, Binary.class);
      if (state == null) {
        continue;
      }
      CommandResult<EstimationProbe> result =
          new EstimateAbilityToConsumeCommand(tokens).execute(new MutableBucketEntry(state.getData()), now);
      if (!result.isBucketNotFound()) {
        probes.put(document.getString("_id"), result.getData());
      }
    }
    return probes;
  }

  private byte[] read(String key) {
    Document document = collection.find(Filters.eq("_id", key)).projection(Projections.include(STATE)).first();
    Binary state = document == null ? null : document.get(STATE, Binary.class);
    return state == null ? null : state.getData();
  }

  private Date expiresAt(RemoteBucketState state) {
    long ttlMillis = getClientSideConfig().getExpirationAfterWriteStrategy()
        .map(strategy -> strategy.calculateTimeToLiveMillis(state, currentTimeNanos()))
        .orElse(Long.MAX_VALUE / 2);
    return new Date(nowMillis() + Math.max(0, ttlMillis));
  }

  private long nowMillis() {
    return currentTimeNanos() / 1_000_000;
  }

  /** Deletes up to {@code batchSize} buckets past their expiry; a bucket written again meanwhile is kept. */
  @Override
  public int removeExpired(int batchSize) {
    Date now = new Date(nowMillis());
    List<Object> expired = collection.find(Filters.lt(EXPIRES_AT, now)).projection(Projections.include("_id"))
        .limit(batchSize).map(d -> d.get("_id")).into(new ArrayList<>());
    if (expired.isEmpty()) {
      return 0;
    }
    return (int) collection.deleteMany(Filters.and(Filters.in("_id", expired), Filters.lt(EXPIRES_AT, now)))
        .getDeletedCount();
  }

  /** Starts the sweep of expired buckets every {@code interval} (the embedded store ignores TTL indexes). */
  public synchronized MongoProxyManager start(java.time.Duration interval) {
    if (sweeper == null) {
      sweeper = Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("rate-limit-sweep").factory());
      long period = interval.toMillis();
      sweeper.scheduleWithFixedDelay(this::sweepSafely, period, period, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  @Override
  public synchronized void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
      sweeper = null;
    }
  }

  private void sweepSafely() {
    try {
      int removed;
      int total = 0;
      do {
        removed = removeExpired(500);
        total += removed;
      } while (removed == 500);
      if (total > 0) {
        log.debug("deleted {} expired rate-limit bucket(s)", total);
      }
    } catch (RuntimeException e) {
      log.warn("rate-limit bucket sweep failed: {}", e.toString());
    }
  }

  @Override
  public void removeProxy(String key) {
    collection.deleteOne(Filters.eq("_id", key));
  }

  @Override
  public boolean isAsyncModeSupported() {
    return false;
  }

  @Override
  public boolean isExpireAfterWriteSupported() {
    return true;
  }

  @Override
  protected AsyncCompareAndSwapOperation beginAsyncCompareAndSwapOperation(String key) {
    throw new UnsupportedOperationException("MongoProxyManager is synchronous");
  }

  @Override
  protected CompletableFuture<Void> removeAsync(String key) {
    throw new UnsupportedOperationException("MongoProxyManager is synchronous");
  }
}
