package dev.lipa.common.lease;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import org.bson.Document;

/**
 * Named leases for scheduled jobs, so that with N replicas of a service one replica at a time runs a job, in the
 * collection {@value #COLLECTION} of the service's own database: one document per lease,
 * {@code {_id: name, holder, until, token}}.
 *
 * <p>{@link #acquire} is one atomic upsert that matches only a lease that has expired or that the caller already
 * holds, and bumps {@code token}: the <b>fencing token</b>. Another replica's live lease makes the upsert's insert hit
 * the unique {@code _id}, which means "not now". A holder that stalls (a GC pause, SIGSTOP) past {@code until} can be
 * overtaken by another replica, whose token is then greater; {@link #check} before every act of the job, made against
 * the store rather than the holder's own memory, stops the stalled holder as soon as it wakes. Acts themselves stay
 * compare-and-sets where they can, so that the short window between a check and its act cannot double an effect.
 *
 * <p>Expiry is judged by the clock of the replica that asks: replicas' clocks must agree to well within a lease's
 * duration (NTP does this by orders of magnitude); the fencing check is what covers a holder whose own time stopped.
 */
public final class Leases {

  public static final String COLLECTION = "leases";
  static final String HOLDER = "holder";
  static final String UNTIL = "until";
  static final String TOKEN = "token";

  private final MongoCollection<Document> collection;
  private final Clock clock;

  public Leases(MongoCollection<Document> collection, Clock clock) {
    this.collection = collection;
    this.clock = clock;
  }

  /**
   * Takes the lease {@code name} for {@code holder} for {@code duration} from now, or renews it when {@code holder}
   * already has it; empty while another holder's lease is live. Every grant, renewals too, carries a new token.
   */
  public Optional<Lease> acquire(String name, String holder, Duration duration) {
    Instant now = clock.instant();
    Instant until = now.plus(duration);
    try {
      Document after = collection.findOneAndUpdate(
          Filters.and(Filters.eq("_id", name),
              Filters.or(Filters.lte(UNTIL, Date.from(now)), Filters.eq(HOLDER, holder))),
          Updates.combine(Updates.set(HOLDER, holder), Updates.set(UNTIL, Date.from(until)),
              Updates.inc(TOKEN, 1L)),
          new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER));
      return Optional.of(new Lease(name, holder, ((Number) after.get(TOKEN)).longValue(),
          after.getDate(UNTIL).toInstant()));
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
        return Optional.empty();
      }
      throw e;
    } catch (MongoCommandException e) {
      // findAndModify reports its duplicate key as a command error
      if (ErrorCategory.fromErrorCode(e.getErrorCode()) == ErrorCategory.DUPLICATE_KEY) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Whether {@code lease} is still the current holding of its name (same token) and has not expired. */
  public boolean holds(Lease lease) {
    Document current = collection.find(Filters.eq("_id", lease.name())).first();
    return current != null
        && current.get(TOKEN) instanceof Number token && token.longValue() == lease.token()
        && lease.holder().equals(current.getString(HOLDER))
        && current.getDate(UNTIL).toInstant().isAfter(clock.instant());
  }

  /**
   * The fencing check a job makes before each act.
   *
   * @throws LeaseLostException when the lease expired or another holder has it now
   */
  public void check(Lease lease) {
    if (!holds(lease)) {
      throw new LeaseLostException(lease);
    }
  }

  /** Ends {@code lease} now if it is still this holding (a clean stop), so another replica takes the job at once. */
  public void release(Lease lease) {
    collection.updateOne(Filters.and(Filters.eq("_id", lease.name()), Filters.eq(TOKEN, lease.token())),
        Updates.set(UNTIL, Date.from(clock.instant())));
  }
}
