package dev.lipa.common.idempotency;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.FieldErrors;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Idempotency keys (the {@code Idempotency-Key} header, with Stripe's semantics) kept in one collection of the
 * service's own database, with single-document atomic operations only (the store has no transactions).
 *
 * <p>One document per key, {@code _id = organisationId|scope|key} (organisation ids and scopes contain no {@code |}),
 * so keys are scoped per organisation and per endpoint and the unique {@code _id} is the lock:
 * <ol>
 *   <li>{@link #begin}: insert the document {@code IN_FLIGHT} with the body's fingerprint, an owner token, a lease and
 *       {@code expiresAt}. The insert that wins owns the key; a duplicate-key error means the key exists, and the
 *       existing document decides: another fingerprint is a {@link Attempt.Mismatch}; {@code COMPLETED} is a
 *       {@link Attempt.Replay}; {@code IN_FLIGHT} within its lease is {@link Attempt.InFlight}; {@code IN_FLIGHT} past
 *       its lease (its claimant died) is taken over by a compare-and-set on the old owner token.</li>
 *   <li>the caller executes the request, stamping the record it creates with {@link IdempotencyClaim#recordKey()}
 *       in a field under a unique index;</li>
 *   <li>{@link #complete} stores the response (compare-and-set on the owner); {@link #release} deletes the document
 *       after a refusal (a 4xx, which writes nothing), so the key can be used again with a corrected body;
 *       {@link #abandon} ends the lease at once after a failure (a 5xx or an exception, which may have written the
 *       record before it failed), so the client may retry at once and the retry keeps the same record key.</li>
 * </ol>
 *
 * <p>Crash windows, and why none of them executes a request twice:
 * <ul>
 *   <li>after the claim, before the record is written: the key stays IN_FLIGHT; retries get 409 until the lease
 *       ends, then one retry takes the key over and executes; nothing had been created.</li>
 *   <li>after the record is written, before {@link #complete}: a retry takes the key over after the lease and
 *       executes again, but the record's unique {@code recordKey} (kept across take-overs) refuses a second insert;
 *       the caller then finds the record and answers with its original response, which {@link #complete} stores.
 *       The same holds when a slow claimant outlives its lease and both finish: one record, the same answer.</li>
 *   <li>after {@link #complete}: every retry is a replay.</li>
 *   <li>after {@link #release} of a 5xx: the key is free and the next attempt executes afresh; if the 5xx came after
 *       the record was written, the record's unique key again turns the retry into the original answer.</li>
 * </ul>
 *
 * <p>Keys live {@link IdempotencySettings#retention()} (at least 24 h) from their first use: {@code expiresAt} has
 * a TTL index for a real MongoDB, and since the embedded store ignores TTL indexes a clean-up job deletes expired
 * keys too ({@link #start()}); an expired key that is still there counts as absent. Safe on every replica at once.
 */
public final class IdempotencyKeys implements AutoCloseable {

  /** The request header. */
  public static final String HEADER = "Idempotency-Key";
  /** The response header set on a replayed response. */
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";
  public static final String COLLECTION = "idempotency_keys";
  public static final int KEY_MAX_LENGTH = 255;

  static final String IN_FLIGHT = "IN_FLIGHT";
  static final String COMPLETED = "COMPLETED";
  private static final int ATTEMPTS = 5;
  private static final Logger log = LoggerFactory.getLogger(IdempotencyKeys.class);

  private final MongoCollection<Document> collection;
  private final IdempotencySettings settings;
  private final Clock clock;
  private volatile ScheduledExecutorService cleaner;

  public IdempotencyKeys(MongoCollection<Document> collection, IdempotencySettings settings, Clock clock) {
    this.collection = collection;
    this.settings = settings;
    this.clock = clock;
    // a real MongoDB deletes expired keys by itself; the embedded store ignores TTL indexes (see purgeExpired)
    collection.createIndex(Indexes.ascending("expiresAt"),
        new IndexOptions().name("idempotency_expiry").expireAfter(0L, TimeUnit.SECONDS));
  }

  /**
   * Reads the {@code Idempotency-Key} header: null when absent; otherwise at most 255 visible ASCII characters
   * (spaces allowed inside), surrounding whitespace ignored. A bad key is recorded in {@code errors} under the header's
   * name and null is returned.
   */
  public static String readKey(String header, FieldErrors errors) {
    if (header == null) {
      return null;
    }
    String key = header.strip();
    if (key.isEmpty()) {
      errors.add(HEADER, HEADER + " must not be blank");
      return null;
    }
    if (key.length() > KEY_MAX_LENGTH) {
      errors.add(HEADER, HEADER + " must be at most " + KEY_MAX_LENGTH + " characters");
      return null;
    }
    if (!key.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
      errors.add(HEADER, HEADER + " must contain only visible ASCII characters");
      return null;
    }
    return key;
  }

  /** Claims the request's key, or says why not (see the class comment). The request must carry a key. */
  public Attempt begin(IdempotentRequest request) {
    if (!request.hasKey()) {
      throw new IllegalArgumentException("the request has no idempotency key");
    }
    String id = request.organisationId().value() + "|" + request.scope() + "|" + request.key();
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      Instant now = clock.instant();
      String owner = UUID.randomUUID().toString();
      String recordKey = UUID.randomUUID().toString();
      try {
        collection.insertOne(new Document("_id", id)
            .append("organisationId", request.organisationId().value())
            .append("scope", request.scope())
            .append("key", request.key())
            .append("fingerprint", request.fingerprint())
            .append("state", IN_FLIGHT)
            .append("owner", owner)
            .append("recordKey", recordKey)
            .append("leaseUntil", Date.from(now.plus(settings.lease())))
            .append("createdAt", Date.from(now))
            .append("expiresAt", Date.from(now.plus(settings.retention()))));
        return new Attempt.Claimed(new IdempotencyClaim(id, recordKey, owner, false));
      } catch (MongoWriteException e) {
        if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
          throw e;
        }
      }
      Document existing = collection.find(Filters.eq("_id", id)).first();
      if (existing == null) {
        continue; // released or purged between our insert and this read
      }
      if (!existing.getDate("expiresAt").toInstant().isAfter(now)) {
        // expired but not yet cleaned up: it counts as absent
        collection.deleteOne(Filters.and(Filters.eq("_id", id), Filters.lte("expiresAt", Date.from(now))));
        continue;
      }
      if (!request.fingerprint().equals(existing.getString("fingerprint"))) {
        return new Attempt.Mismatch();
      }
      if (COMPLETED.equals(existing.getString("state"))) {
        return new Attempt.Replay(new StoredResponse(existing.getInteger("status"), existing.getString("body")));
      }
      if (existing.getDate("leaseUntil").toInstant().isAfter(now)) {
        return new Attempt.InFlight();
      }
      Document taken = collection.findOneAndUpdate(
          Filters.and(Filters.eq("_id", id), Filters.eq("state", IN_FLIGHT),
              Filters.eq("owner", existing.getString("owner"))),
          Updates.combine(Updates.set("owner", owner),
              Updates.set("leaseUntil", Date.from(now.plus(settings.lease())))),
          new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
      if (taken != null) {
        log.info("idempotency key {} taken over after its claimant's lease ended", id);
        return new Attempt.Claimed(new IdempotencyClaim(id, taken.getString("recordKey"), owner, true));
      }
    }
    // the key changed hands under us every time: someone else is working on it
    return new Attempt.InFlight();
  }

  /** Stores the response of a claimed request; false when the claim was lost (taken over after its lease). */
  public boolean complete(IdempotencyClaim claim, StoredResponse response) {
    return collection.updateOne(owned(claim), Updates.combine(
        Updates.set("state", COMPLETED),
        Updates.set("status", response.status()),
        Updates.set("body", response.body()),
        Updates.set("completedAt", Date.from(clock.instant())),
        Updates.unset("leaseUntil"))).getModifiedCount() > 0;
  }

  /**
   * Frees the key after a refusal, which wrote nothing: nothing is kept of the attempt, and the key may be used again
   * with another body.
   */
  public void release(IdempotencyClaim claim) {
    collection.deleteOne(owned(claim));
  }

  /**
   * Ends the claim's lease now after a failure that may have written the request's record: the next attempt with the
   * same body takes the key over at once and keeps its record key, so it finds that record instead of creating a
   * second one (see the class comment).
   */
  public void abandon(IdempotencyClaim claim) {
    collection.updateOne(owned(claim), Updates.set("leaseUntil", Date.from(clock.instant())));
  }

  /** Deletes keys past their {@code expiresAt}; returns how many. */
  public long purgeExpired() {
    return collection.deleteMany(Filters.lt("expiresAt", Date.from(clock.instant()))).getDeletedCount();
  }

  /** Starts the clean-up job every {@link IdempotencySettings#cleanupInterval()}. */
  public synchronized IdempotencyKeys start() {
    if (cleaner == null) {
      cleaner = Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("idempotency-cleanup").factory());
      long period = settings.cleanupInterval().toMillis();
      cleaner.scheduleWithFixedDelay(this::purgeSafely, period, period, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  @Override
  public synchronized void close() {
    if (cleaner != null) {
      cleaner.shutdownNow();
      cleaner = null;
    }
  }

  private void purgeSafely() {
    try {
      long purged = purgeExpired();
      if (purged > 0) {
        log.info("deleted {} expired idempotency key(s)", purged);
      }
    } catch (RuntimeException e) {
      log.warn("idempotency key clean-up failed: {}", e.toString());
    }
  }

  private static Bson owned(IdempotencyClaim claim) {
    return Filters.and(Filters.eq("_id", claim.id()), Filters.eq("owner", claim.owner()),
        Filters.eq("state", IN_FLIGHT));
  }
}
