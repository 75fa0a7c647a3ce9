package dev.lipa.common.outbox;

import com.mongodb.client.MongoCollection;
import dev.lipa.common.tracing.TraceContexts;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outboxes of one service: one started {@link Outbox} per collection that carries events, all on the service's one
 * Kafka producer and its {@link OutboxSettings}. A store asks for the outbox of its own collection, so the collection
 * name is declared once, where the store names it, and no store sees a Kafka type.
 *
 * <p>Closing closes every outbox, newest first, and then the producer: an outbox flushes the producer and writes its
 * held acknowledgements while it closes, so the producer must outlive every outbox.
 */
public final class Outboxes implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Outboxes.class);

  private final Producer<String, String> producer;
  private final OutboxSettings settings;
  private final Clock clock;
  private final TraceContexts tracing;
  private final Map<String, Outbox> byCollection = new LinkedHashMap<>();
  private final Map<String, MongoCollection<Document>> collections = new LinkedHashMap<>();
  private final List<Consumer<MongoCollection<Document>>> watchers = new ArrayList<>();
  private boolean closed;

  /** Takes ownership of {@code producer} (idempotent, acks=all, String serializers): {@link #close()} closes it. */
  public Outboxes(Producer<String, String> producer, OutboxSettings settings, Clock clock) {
    this(producer, settings, clock, TraceContexts.NONE);
  }

  /** The same, the events carrying their trace context (see {@link OutboxEvent#traceparent()}). */
  public Outboxes(Producer<String, String> producer, OutboxSettings settings, Clock clock, TraceContexts tracing) {
    this.tracing = tracing;
    this.producer = producer;
    this.settings = settings;
    this.clock = clock;
  }

  /** The outbox of this collection, started on first use; the same one for every store of the collection. */
  public synchronized Outbox of(MongoCollection<Document> collection) {
    if (closed) {
      throw new IllegalStateException("the outboxes are closed");
    }
    return byCollection.computeIfAbsent(collection.getNamespace().getFullName(), name -> {
      Outbox outbox = new Outbox(collection, producer, settings, clock, tracing).start();
      collections.put(name, collection);
      watchers.forEach(watcher -> watcher.accept(collection));
      return outbox;
    });
  }

  /**
   * Calls {@code watcher} with the collection of every outbox, those started already and those started later (the
   * outbox gauges: stores start their outboxes when they are made, before or after whoever watches).
   */
  public synchronized void onEachOutbox(Consumer<MongoCollection<Document>> watcher) {
    watchers.add(watcher);
    collections.values().forEach(watcher);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<Outbox> outboxes = new ArrayList<>(byCollection.values());
    for (Outbox outbox : outboxes.reversed()) {
      try {
        outbox.close();
      } catch (RuntimeException e) {
        log.warn("an outbox failed to close: {}", e.toString());
      }
    }
    producer.close();
  }
}
