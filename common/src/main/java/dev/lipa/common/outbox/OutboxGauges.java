package dev.lipa.common.outbox;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.CountOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import dev.lipa.common.metrics.CachedReading;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The outbox gauges of every outbox of a service, tagged with the collection: {@value #PENDING} (documents whose
 * events Kafka has not acknowledged yet, counted up to {@value #COUNT_LIMIT}) and {@value #OLDEST_AGE} (seconds since
 * the oldest of them was written or last republished; 0 when none is pending). A healthy outbox holds a document for
 * the held acknowledgement's few seconds at most; while Kafka is unreachable the count grows and the age stays near
 * the grace period (the sweeper's claim moves a document's time forward each time it republishes it), which the
 * alerts in infra/observability watch. Both read the sparse {@code outboxPendingSince} index, at most once per
 * {@value #MAX_AGE_SECONDS} s whatever the scrape rate.
 */
final class OutboxGauges {

  static final String PENDING = "lipa.outbox.pending";
  static final String OLDEST_AGE = "lipa.outbox.oldest.age";
  static final int COUNT_LIMIT = 100_000;
  static final int MAX_AGE_SECONDS = 5;
  private static final Bson PENDING_FILTER = Filters.gte(Outbox.PENDING_SINCE, new Date(0));

  private final MeterRegistry registry;
  private final Clock clock;

  OutboxGauges(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  void register(MongoCollection<Document> collection) {
    String name = collection.getNamespace().getCollectionName();
    Duration maxAge = Duration.ofSeconds(MAX_AGE_SECONDS);
    CachedReading pending = new CachedReading(PENDING + " " + name,
        () -> collection.countDocuments(PENDING_FILTER, new CountOptions().limit(COUNT_LIMIT)), maxAge, clock);
    CachedReading oldest = new CachedReading(OLDEST_AGE + " " + name, () -> oldestAgeSeconds(collection), maxAge,
        clock);
    Gauge.builder(PENDING, pending, CachedReading::value)
        .description("Documents whose outbox events Kafka has not acknowledged yet").tag("collection", name)
        .strongReference(true).register(registry);
    Gauge.builder(OLDEST_AGE, oldest, CachedReading::value).baseUnit("seconds")
        .description("Age of the oldest unacknowledged outbox event, 0 when none").tag("collection", name)
        .strongReference(true).register(registry);
  }

  private double oldestAgeSeconds(MongoCollection<Document> collection) {
    Document oldest = collection.find(PENDING_FILTER).sort(Sorts.ascending(Outbox.PENDING_SINCE))
        .projection(Projections.include(Outbox.PENDING_SINCE)).limit(1).first();
    if (oldest == null || oldest.getDate(Outbox.PENDING_SINCE) == null) {
      return 0;
    }
    long millis = clock.millis() - oldest.getDate(Outbox.PENDING_SINCE).getTime();
    return Math.max(0, millis) / 1000.0;
  }
}
