package dev.lipa.infra.bench;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.ErrorCategory;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.UpdateOptions;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.bson.Document;
import org.bson.types.Decimal128;

/**
 * The reference payment's ledger credits, batched as the platform may batch them: a successful payment's credit waits
 * for the next tick ({@link #TICK}), and each tick inserts the entries it gathered with one unordered
 * {@code insertMany} into {@value #ENTRIES} ({@code _id} the movement id, so a credit is journaled once) and adds
 * their sum to each account with one {@code $inc} ({@value #ACCOUNTS}, one document per organisation and currency).
 * payouts-service's ledger credits a Kafka poll's collections per account the same way, with a journal check and an
 * account's pending entries besides; that bookkeeping is left out here.
 */
final class ReferenceLedger implements AutoCloseable {

  static final String ACCOUNTS = "ledger_accounts";
  static final String ENTRIES = "ledger_entries";
  /** How long a credit waits for the others of its batch, at most. */
  static final Duration TICK = Duration.ofMillis(50);

  /** One successful collection to credit. */
  record Credit(String organisationId, String currency, String requestId, BigDecimal amount, Instant at) {

    String accountId() {
      return organisationId + ":" + currency;
    }
  }

  private final MongoCollection<Document> accounts;
  private final MongoCollection<Document> entries;
  private final ConcurrentLinkedQueue<Credit> waiting = new ConcurrentLinkedQueue<>();
  private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("reference-ledger").factory());
  private final LongAdder credited = new LongAdder();
  private final LongAdder failed = new LongAdder();

  ReferenceLedger(MongoDatabase database) {
    this.accounts = database.getCollection(ACCOUNTS);
    this.entries = database.getCollection(ENTRIES);
    ticks.scheduleWithFixedDelay(this::flush, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Credits the collection at the next tick. */
  void credit(Credit credit) {
    waiting.add(credit);
  }

  long credited() {
    return credited.sum();
  }

  long failed() {
    return failed.sum();
  }

  /** Writes the credits gathered since the last tick: the entries in one insert, then one $inc per account. */
  void flush() {
    List<Credit> batch = new ArrayList<>();
    for (Credit credit = waiting.poll(); credit != null; credit = waiting.poll()) {
      batch.add(credit);
    }
    if (batch.isEmpty()) {
      return;
    }
    try {
      List<Credit> journaled = insertEntries(batch);
      Map<String, BigDecimal> sums = new LinkedHashMap<>();
      journaled.forEach(credit -> sums.merge(credit.accountId(), credit.amount(), BigDecimal::add));
      Date now = new Date();
      sums.forEach((account, sum) -> accounts.updateOne(new Document("_id", account),
          new Document("$inc", new Document("available", new Decimal128(sum)))
              .append("$set", new Document("updatedAt", now)),
          new UpdateOptions().upsert(true)));
      credited.add(journaled.size());
    } catch (RuntimeException e) {
      failed.add(batch.size());
      System.err.println("reference ledger: " + batch.size() + " credits not written: " + e);
    }
  }

  /** Journals the credits; returns those journaled now (a credit journaled before is a duplicate key, left out). */
  private List<Credit> insertEntries(List<Credit> batch) {
    List<Document> documents = new ArrayList<>(batch.size());
    for (Credit credit : batch) {
      documents.add(new Document("_id", "stk.succeeded:" + credit.requestId())
          .append("organisationId", credit.organisationId())
          .append("currency", credit.currency())
          .append("kind", "CREDIT")
          .append("requestId", credit.requestId())
          .append("amount", new Decimal128(credit.amount()))
          .append("at", Date.from(credit.at())));
    }
    try {
      entries.insertMany(documents, new InsertManyOptions().ordered(false));
      return batch;
    } catch (MongoBulkWriteException e) {
      if (e.getWriteErrors().stream().anyMatch(error -> error.getCategory() != ErrorCategory.DUPLICATE_KEY)) {
        throw e;
      }
      List<Credit> journaled = new ArrayList<>(batch);
      e.getWriteErrors().stream().map(error -> batch.get(error.getIndex())).forEach(journaled::remove);
      return journaled;
    }
  }

  /** Writes what waits, then stops the ticks. */
  @Override
  public void close() {
    ticks.shutdown();
    try {
      ticks.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flush();
  }
}
