package dev.lipa.infra.bench;

import com.mongodb.client.MongoCollection;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.bson.Document;

/**
 * The second half of a reference payment, after the sandbox delay: the outcome the sandbox rail would report (its
 * magic numbers: {@link #decide}), applied as one compare-and-set of the stored push from PENDING (no read first: the
 * accept handed the payment over in memory), the outcome record and the callback request produced on the reference's
 * topics and acknowledged, a ledger credit for a success ({@link ReferenceLedger}, batched), and the signed callback
 * with its delivery write ({@link ReferenceCallbacks}). As the platform's sandbox rail, one timer thread waits and each
 * outcome runs on a virtual thread, at most {@link #CONCURRENCY} compare-and-sets at once (the bound that keeps the
 * store's connections for the accepts); the records and the callback come after, outside it, as the platform's outbox
 * relay and dispatcher send them apart from the rail.
 */
final class ReferenceOutcomes implements AutoCloseable {

  /** Outcomes applied at once: collections-service's {@code DelayedTasks.DEFAULT_CONCURRENCY}. */
  static final int CONCURRENCY = 32;
  static final String SUCCESS_DESCRIPTION = "The service request is processed successfully.";
  /** collections-service's sandbox failures of Kenyan numbers ({@code SandboxOutcomes}): result code, description. */
  private static final Map<String, Map.Entry<Integer, String>> FAILURES = Map.of(
      "254700000001", Map.entry(1, "The balance is insufficient for the transaction."),
      "254700001032", Map.entry(1032, "Request cancelled by user"),
      "254700001037", Map.entry(1037, "DS timeout user cannot be reached"),
      "254700002001", Map.entry(2001, "The initiator information is invalid."));

  /** An accepted payment waiting for its outcome: what the accept stored, kept in memory. */
  record Pending(String requestId, String organisationId, String phoneNumber, BigDecimal amount, String callbackUrl) {
  }

  /** What the rail reports: SUCCESS with a receipt, or FAILED with the result code of the number. */
  record Result(boolean successful, int resultCode, String resultDescription, String receipt) {

    String status() {
      return successful ? "SUCCESS" : "FAILED";
    }
  }

  private final MongoCollection<Document> pushes;
  private final KafkaProducer<String, String> producer;
  private final ReferenceEvents events;
  private final ReferenceLedger ledger;
  private final ReferenceCallbacks callbacks;
  private final long delayMillis;
  private final Semaphore turns = new Semaphore(CONCURRENCY, true);
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("reference-outcome-timer").factory());
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
  private final LongAdder completed = new LongAdder();
  private final LongAdder failed = new LongAdder();

  ReferenceOutcomes(MongoCollection<Document> pushes, KafkaProducer<String, String> producer, ReferenceEvents events,
      ReferenceLedger ledger, ReferenceCallbacks callbacks, Duration delay) {
    this.pushes = pushes;
    this.producer = producer;
    this.events = events;
    this.ledger = ledger;
    this.callbacks = callbacks;
    this.delayMillis = delay.toMillis();
  }

  /** The sandbox's outcome for a number: a magic number fails with its code, every other one pays. */
  static Result decide(String requestId, String phoneNumber) {
    Map.Entry<Integer, String> failure = FAILURES.get(phoneNumber);
    return failure == null
        ? new Result(true, 0, SUCCESS_DESCRIPTION, receipt(requestId))
        : new Result(false, failure.getKey(), failure.getValue(), null);
  }

  /** Ten letters and digits starting with a letter, like an M-Pesa receipt, from the request id. */
  static String receipt(String requestId) {
    return "R" + requestId.replace("-", "").substring(0, 9).toUpperCase(Locale.ROOT);
  }

  long completed() {
    return completed.sum();
  }

  long failed() {
    return failed.sum();
  }

  /** Applies the payment's outcome after the sandbox delay. */
  void schedule(Pending payment) {
    try {
      timer.schedule(() -> workers.execute(() -> run(payment)), delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // stopping: the payment stays PENDING, as a sandbox rail's timer lost in a crash leaves it
    }
  }

  private void run(Pending payment) {
    try {
      Result result = decide(payment.requestId(), payment.phoneNumber());
      Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
      String callbackId = UUID.randomUUID().toString();
      boolean applied;
      turns.acquire();
      try {
        applied = compareAndSet(payment, result, callbackId, now);
      } finally {
        turns.release();
      }
      if (!applied) {
        return;
      }
      Map<String, Object> body = ReferenceEvents.callbackBody(payment, result);
      produce(payment, result, callbackId, body, now);
      if (result.successful()) {
        ledger.credit(new ReferenceLedger.Credit(payment.organisationId(), "KSH", payment.requestId(),
            payment.amount(), now));
      }
      completed.increment();
      callbacks.deliver(payment.organisationId(), callbackId, payment.requestId(), payment.callbackUrl(),
          events.json(body));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failed.increment();
      System.err.println("reference outcome of " + payment.requestId() + " failed: " + e);
    }
  }

  /**
   * Moves the push from PENDING to its final state in one guarded update, with the rail's references and result;
   * false when it was not PENDING any more (a repeated outcome changes nothing).
   */
  private boolean compareAndSet(Pending payment, Result result, String callbackId, Instant now) {
    // a filter of top-level fields (no $and): the embedded store finds the push by its _id index
    Document pending = new Document("_id", payment.requestId()).append("organisationId", payment.organisationId())
        .append("status", "PENDING");
    Document changes = new Document("status", result.status())
        .append("updatedAt", Date.from(now))
        .append("merchantRequestId", payment.requestId().substring(0, 18))
        .append("checkoutRequestId", "ws_CO_" + payment.requestId().substring(24))
        .append("responseCode", 0)
        .append("resultCode", result.resultCode())
        .append("resultDescription", result.resultDescription())
        .append("callbackId", callbackId);
    if (result.receipt() != null) {
      changes.append("receipt", result.receipt());
    }
    return pushes.updateOne(pending, new Document("$set", changes)).getModifiedCount() == 1;
  }

  /** The outcome record and the callback request, sent together and both acknowledged. */
  private void produce(Pending payment, Result result, String callbackId, Map<String, Object> body, Instant now)
      throws Exception {
    Future<RecordMetadata> outcome = producer.send(new ProducerRecord<>(ReferencePipeline.TOPIC,
        payment.requestId(), events.outcome(payment, result, now)));
    Future<RecordMetadata> request = producer.send(new ProducerRecord<>(ReferencePipeline.CALLBACKS_TOPIC,
        payment.requestId(), events.callbackRequested(payment, callbackId, body, now)));
    outcome.get();
    request.get();
  }

  /** Stops the timer: payments still waiting stay PENDING. Lets the outcomes under way finish. */
  @Override
  public void close() {
    timer.shutdownNow();
    workers.shutdown();
    try {
      workers.awaitTermination(15, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
