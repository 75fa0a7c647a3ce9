package dev.lipa.dispatcher.delivery;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOptions;
import dev.lipa.common.ids.OrganisationId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.bson.Document;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Callback URLs that answered {@code 410 Gone}: per organisation and exact URL, no callback is sent there again until
 * the merchant asks for a redelivery (or an operator replays) of a callback to that URL, which re-enables it.
 *
 * <p>Checked before every attempt, so the set lives in memory: this process updates it at once, and
 * {@link #refresh()} (called by the poller every few seconds) picks up what other replicas changed. The collection
 * is small (one document per gone endpoint) and read whole, which is the one reason it is read across organisations.
 */
@Component
public class DisabledEndpoints {

  static final String COLLECTION = "disabled_endpoints";
  private static final Duration REFRESH_EVERY = Duration.ofSeconds(5);
  private static final int DUPLICATE_KEY = 11000;

  private final MongoCollection<Document> endpoints;
  private final Clock clock;
  private volatile Set<String> disabled = ConcurrentHashMap.newKeySet();
  private volatile Instant refreshedAt = Instant.EPOCH;

  DisabledEndpoints(MongoClient client, @Value("${spring.mongodb.database}") String database, Clock clock) {
    this.endpoints = client.getDatabase(database).getCollection(COLLECTION);
    this.clock = clock;
    refresh();
  }

  public boolean isDisabled(OrganisationId organisationId, String url) {
    return disabled.contains(key(organisationId, url));
  }

  /** Stops callbacks to this URL of this organisation. */
  public void disable(OrganisationId organisationId, String url, String callbackId) {
    String key = key(organisationId, url);
    try {
      endpoints.replaceOne(Filters.eq("_id", key),
          new Document("_id", key).append("organisationId", organisationId.value()).append("url", url)
              .append("disabledAt", Date.from(clock.instant())).append("byCallbackId", callbackId),
          new ReplaceOptions().upsert(true));
    } catch (MongoServerException e) {
      // two replicas disabling one endpoint at once race on a real MongoDB: the loser's upsert fails with a duplicate
      // key, and the endpoint is disabled all the same (the winner's document says so)
      if (e.getCode() != DUPLICATE_KEY || endpoints.countDocuments(Filters.eq("_id", key)) == 0) {
        throw e;
      }
    }
    disabled.add(key);
  }

  /** Lets callbacks go to this URL again; true when it was disabled. */
  public boolean enable(OrganisationId organisationId, String url) {
    String key = key(organisationId, url);
    boolean wasDisabled = disabled.remove(key);
    return endpoints.deleteOne(Filters.eq("_id", key)).getDeletedCount() > 0 || wasDisabled;
  }

  /** Re-reads the set if it was last read more than a few seconds ago. */
  void refreshIfStale() {
    if (Duration.between(refreshedAt, clock.instant()).compareTo(REFRESH_EVERY) >= 0) {
      refresh();
    }
  }

  void refresh() {
    Set<String> fresh = ConcurrentHashMap.newKeySet();
    endpoints.find().forEach(doc -> fresh.add(doc.getString("_id")));
    disabled = fresh;
    refreshedAt = clock.instant();
  }

  private static String key(OrganisationId organisationId, String url) {
    return organisationId.value() + " " + url;
  }
}
