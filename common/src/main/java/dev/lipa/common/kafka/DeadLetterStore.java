package dev.lipa.common.kafka;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.CountOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Binary;

/**
 * The dead letters of this service's consumers, in its own database (collection {@value #COLLECTION}): one document per
 * failed record and consumer group, keyed by where the record was read ({@code group, topic, partition, offset}, a
 * unique index), so writing the same dead letter again (a retried recovery, a redelivery) changes nothing but its
 * failure count. The record's key, value and headers are kept, so it can be replayed without the dead-letter topic.
 */
public final class DeadLetterStore {

  public static final String COLLECTION = "dead_letters";
  static final int MAX_MESSAGE = 2000;
  private static final int DUPLICATE_KEY = 11000;
  private static final String ID = "_id";
  private static final String GROUP = "consumerGroup";
  private static final String TOPIC = "topic";
  private static final String PARTITION = "partition";
  private static final String OFFSET = "offset";
  private static final String STATUS = "status";
  private static final String LISTENER = "listener";
  private static final String DEAD_AT = "deadAt";
  private static final String ATTEMPTS = "attempts";

  private final MongoCollection<Document> collection;

  public DeadLetterStore(MongoCollection<Document> collection) {
    this.collection = collection;
    // unique first: the embedded store asks indexes in order (see embedded-store's SecondaryIndex)
    collection.createIndex(Indexes.ascending(GROUP, TOPIC, PARTITION, OFFSET),
        new IndexOptions().name("dead_letters_source").unique(true));
    collection.createIndex(Indexes.descending(DEAD_AT), new IndexOptions().name("dead_letters_dead_at"));
  }

  /**
   * Records that {@code listener} (group {@code group}) failed on {@code record} for good, and returns the dead letter.
   * A record already recorded keeps its id, history and count; its failure is updated and it is DEAD again.
   */
  public DeadLetter record(String listener, String group, ConsumerRecord<?, ?> record, String deadLetterTopic,
      Throwable failure, Instant at) {
    Bson source = Filters.and(Filters.eq(GROUP, group), Filters.eq(TOPIC, record.topic()),
        Filters.eq(PARTITION, record.partition()), Filters.eq(OFFSET, record.offset()));
    Bson update = Updates.combine(
        Updates.setOnInsert(ID, UUID.randomUUID().toString()),
        Updates.setOnInsert(LISTENER, listener),
        Updates.setOnInsert("timestamp", record.timestampType() == TimestampType.NO_TIMESTAMP_TYPE
            ? null : new Date(record.timestamp())),
        Updates.setOnInsert("key", text(record.key())),
        Updates.setOnInsert("value", text(record.value())),
        Updates.setOnInsert("headers", headers(record)),
        Updates.setOnInsert("deadLetterTopic", deadLetterTopic),
        Updates.setOnInsert(DEAD_AT, Date.from(at)),
        Updates.setOnInsert("replays", 0),
        // written again when its recovery is retried (the dead-letter topic was down): still one failure
        Updates.setOnInsert(ATTEMPTS, 1),
        Updates.set(STATUS, DeadLetter.Status.DEAD.name()),
        Updates.set("exceptionClass", failure.getClass().getName()),
        Updates.set("exceptionMessage", bounded(failure.getMessage())),
        Updates.set("lastFailedAt", Date.from(at)));
    FindOneAndUpdateOptions upsert = new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER);
    try {
      return read(collection.findOneAndUpdate(source, update, upsert));
    } catch (MongoServerException e) {
      if (e.getCode() != DUPLICATE_KEY) {
        throw e;
      }
      // another replica recorded the same record at the same moment (after a rebalance): update that one
      return read(collection.findOneAndUpdate(source, update, upsert.upsert(false)));
    }
  }

  public Optional<DeadLetter> find(String id) {
    return Optional.ofNullable(collection.find(Filters.eq(ID, id)).first()).map(DeadLetterStore::read);
  }

  /** The original record, as the consumer read it, for a replay. */
  public Optional<ConsumerRecord<String, String>> original(String id) {
    Document d = collection.find(Filters.eq(ID, id)).first();
    if (d == null) {
      return Optional.empty();
    }
    RecordHeaders headers = new RecordHeaders();
    for (Document h : d.getList("headers", Document.class, List.of())) {
      Binary value = h.get("value", Binary.class);
      headers.add(h.getString("name"), value == null ? null : value.getData());
    }
    Date timestamp = d.getDate("timestamp");
    return Optional.of(new ConsumerRecord<>(d.getString(TOPIC), d.getInteger(PARTITION),
        d.get(OFFSET, Number.class).longValue(), timestamp == null ? ConsumerRecord.NO_TIMESTAMP : timestamp.getTime(),
        timestamp == null ? TimestampType.NO_TIMESTAMP_TYPE : TimestampType.CREATE_TIME, ConsumerRecord.NULL_SIZE,
        ConsumerRecord.NULL_SIZE, d.getString("key"), d.getString("value"), headers, Optional.empty()));
  }

  /** How many dead letters wait for an operator (DEAD, not replayed), counted up to {@code limit}. */
  public long countDead(int limit) {
    return collection.countDocuments(Filters.eq(STATUS, DeadLetter.Status.DEAD.name()),
        new CountOptions().limit(limit));
  }

  /** Dead letters, most recently dead first; {@code status} and {@code listener} filter when not null. */
  public List<DeadLetter> list(DeadLetter.Status status, String listener, int page, int size) {
    List<Bson> filters = new ArrayList<>();
    if (status != null) {
      filters.add(Filters.eq(STATUS, status.name()));
    }
    if (listener != null) {
      filters.add(Filters.eq(LISTENER, listener));
    }
    Bson filter = filters.isEmpty() ? new Document() : Filters.and(filters);
    return collection.find(filter).sort(Sorts.orderBy(Sorts.descending(DEAD_AT), Sorts.descending(ID)))
        .skip(page * size).limit(size).map(DeadLetterStore::read).into(new ArrayList<>());
  }

  /** A replay got through the listener. */
  public Optional<DeadLetter> replayed(String id, Instant at) {
    return Optional.ofNullable(collection.findOneAndUpdate(Filters.eq(ID, id),
        Updates.combine(Updates.set(STATUS, DeadLetter.Status.REPLAYED.name()),
            Updates.set("lastReplayedAt", Date.from(at)), Updates.inc("replays", 1)),
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER))).map(DeadLetterStore::read);
  }

  /** A replay failed deterministically again: the record stays (or is again) dead, with the newest failure. */
  public Optional<DeadLetter> failedAgain(String id, Throwable failure, Instant at) {
    return Optional.ofNullable(collection.findOneAndUpdate(Filters.eq(ID, id),
        Updates.combine(Updates.set(STATUS, DeadLetter.Status.DEAD.name()),
            Updates.set("exceptionClass", failure.getClass().getName()),
            Updates.set("exceptionMessage", bounded(failure.getMessage())),
            Updates.set("lastFailedAt", Date.from(at)), Updates.inc(ATTEMPTS, 1)),
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER))).map(DeadLetterStore::read);
  }

  private static DeadLetter read(Document d) {
    return new DeadLetter(d.getString(ID), d.getString(LISTENER), d.getString(GROUP), d.getString(TOPIC),
        d.getInteger(PARTITION), d.get(OFFSET, Number.class).longValue(), instant(d.getDate("timestamp")),
        d.getString("key"), d.getString("value"), d.getString("deadLetterTopic"), d.getString("exceptionClass"),
        d.getString("exceptionMessage"), DeadLetter.Status.valueOf(d.getString(STATUS)),
        d.get(ATTEMPTS, Number.class).intValue(), instant(d.getDate(DEAD_AT)), instant(d.getDate("lastFailedAt")),
        d.get("replays", Number.class).intValue(), instant(d.getDate("lastReplayedAt")));
  }

  /** Keys and values as text: every platform topic carries JSON text with string keys. */
  private static String text(Object value) {
    if (value == null) {
      return null;
    }
    return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : value.toString();
  }

  private static List<Document> headers(ConsumerRecord<?, ?> record) {
    List<Document> headers = new ArrayList<>();
    for (Header header : record.headers()) {
      headers.add(new Document("name", header.key())
          .append("value", header.value() == null ? null : new Binary(header.value())));
    }
    return headers;
  }

  private static String bounded(String message) {
    if (message == null || message.length() <= MAX_MESSAGE) {
      return message;
    }
    return message.substring(0, MAX_MESSAGE) + "…";
  }

  private static Instant instant(Date date) {
    return date == null ? null : date.toInstant();
  }
}
