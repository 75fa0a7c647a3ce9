package dev.lipa.common.outbox;

import dev.lipa.common.tracing.TraceContexts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands stored events to Kafka on workers of its own, so that a request thread never waits for Kafka metadata or a
 * full send buffer; when Kafka has answered for every event of one hand-over, the acknowledged ones go to the
 * {@link HeldAcknowledgements} and the refused ones back to the sweeper. Owns the workers, not the producer.
 */
final class OutboxPublisher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(OutboxPublisher.class);

  private final Producer<String, String> producer;
  private final InFlightEvents inFlight;
  private final HeldAcknowledgements acks;
  private final String namespace;
  private final TraceContexts tracing;
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
  private final List<Consumer<OutboxEvent>> listeners = new CopyOnWriteArrayList<>();

  OutboxPublisher(Producer<String, String> producer, InFlightEvents inFlight, HeldAcknowledgements acks,
      String namespace, TraceContexts tracing) {
    this.producer = producer;
    this.tracing = tracing;
    this.inFlight = inFlight;
    this.acks = acks;
    this.namespace = namespace;
  }

  /** See {@link Outbox#onAcknowledged}. */
  void onAcknowledged(Consumer<OutboxEvent> listener) {
    listeners.add(listener);
  }

  /** Publishes the events of this document that this process is not publishing already, without waiting. */
  void publish(Object documentId, List<OutboxEvent> events) {
    List<OutboxEvent> mine = inFlight.claim(events);
    if (!mine.isEmpty()) {
      run(() -> send(documentId, mine));
    }
  }

  /**
   * Takes no more work, flushes the producer (its answers become held acknowledgements, on the flushing thread once
   * the workers are shut down) and waits briefly for the workers; the producer stays open.
   */
  @Override
  public void close() {
    workers.shutdown();
    try {
      producer.flush();
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("outbox of {} closed with events in flight: {}", namespace, e.toString());
    }
  }

  private void send(Object documentId, List<OutboxEvent> events) {
    Batch batch = new Batch(documentId, events);
    for (OutboxEvent event : events) {
      // the relay's span continues the trace the event was written under, wherever and whenever it is relayed
      TraceContexts.Hop hop = tracing.startHop(event.traceparent(), "outbox relay", event.topic());
      try {
        ProducerRecord<String, String> record = new ProducerRecord<>(event.topic(), event.key(), event.payload());
        if (hop.traceparent() != null) {
          record.headers().add(TraceContexts.TRACEPARENT, hop.traceparent().getBytes(StandardCharsets.US_ASCII));
        }
        producer.send(record, (metadata, failure) -> {
          hop.end(failure);
          batch.done(event, failure);
        });
      } catch (RuntimeException e) {
        hop.end(e);
        batch.done(event, e);
      }
    }
  }

  private void run(Runnable task) {
    try {
      workers.execute(task);
    } catch (RejectedExecutionException e) {
      task.run(); // closing: finish on the caller's thread rather than drop the work
    }
  }

  /** The events of one hand-over; the last answer from Kafka passes the acknowledged ones on. */
  private final class Batch {

    private final Object documentId;
    private final List<OutboxEvent> events;
    private final List<String> acknowledged = new ArrayList<>();
    private final AtomicInteger outstanding;

    Batch(Object documentId, List<OutboxEvent> events) {
      this.documentId = documentId;
      this.events = events;
      this.outstanding = new AtomicInteger(events.size());
    }

    void done(OutboxEvent event, Exception failure) {
      if (failure == null) {
        synchronized (acknowledged) {
          acknowledged.add(event.eventId());
        }
      } else {
        log.warn("publishing event {} to {} failed, the sweeper will retry: {}", event.eventId(), event.topic(),
            failure.toString());
      }
      if (outstanding.decrementAndGet() == 0) {
        // the producer's I/O thread must not block on the store
        run(this::finish);
      }
    }

    private void finish() {
      List<String> ids;
      synchronized (acknowledged) {
        ids = List.copyOf(acknowledged);
      }
      // events Kafka refused are the sweeper's again at once; acknowledged ones stay in flight until removed
      inFlight.release(events.stream().map(OutboxEvent::eventId).filter(id -> !ids.contains(id)).toList());
      if (!ids.isEmpty()) {
        acks.acknowledged(documentId, ids);
        events.stream().filter(event -> ids.contains(event.eventId())).forEach(this::passOn);
      }
    }

    private void passOn(OutboxEvent event) {
      for (Consumer<OutboxEvent> listener : listeners) {
        try {
          listener.accept(event);
        } catch (RuntimeException e) {
          log.warn("a listener of acknowledged event {} failed: {}", event.eventId(), e.toString());
        }
      }
    }
  }
}
