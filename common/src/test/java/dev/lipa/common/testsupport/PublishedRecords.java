package dev.lipa.common.testsupport;

import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.common.outbox.Outbox;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.bson.Document;

/**
 * Everything published for a key, known to be complete: what a test needs to assert that a change put no record on a
 * topic, without a quiet period that merely hopes the record would have come by then.
 *
 * <p>It waits until the aggregate's outbox is empty (Kafka acknowledged every event its changes wrote, including the
 * ones it should not have written), then sends a marker with the same key, so to the same partition and after any of
 * those records, and waits until the {@link TopicRecorder} has seen the marker: the recorder reads a partition in
 * order, so by then it holds every earlier record of the key. Only for topics no listener of the test's JVM reads (the
 * marker is not a platform event).
 */
public final class PublishedRecords {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private PublishedRecords() {
  }

  /**
   * The records on {@code topic} with {@code key}, marker excluded, once the outbox of the document
   * {@code documentId} of {@code outboxes} is drained.
   */
  public static List<ConsumerRecord<String, String>> all(String topic, String key,
      MongoCollection<Document> outboxes, Object documentId) {
    TopicRecorder.start();
    await("the outbox of " + documentId + " drained").atMost(WAIT).until(() -> {
      Document document = outboxes.find(Filters.eq("_id", documentId)).first();
      return document != null && !document.containsKey(Outbox.EVENTS);
    });
    String marker = "{\"type\":\"test.marker\",\"markerId\":\"" + UUID.randomUUID() + "\"}";
    TestKafka.send(topic, key, marker);
    await("the marker on " + topic).atMost(WAIT).until(() -> TopicRecorder.records(topic, key).stream()
        .anyMatch(r -> marker.equals(r.value())));
    return TopicRecorder.records(topic, key).stream().filter(r -> !r.value().contains("\"test.marker\"")).toList();
  }
}
