package dev.lipa.common.store;

import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The store client's defaults for writes that must survive a primary's failure: majority write concern (a write is
 * acknowledged once a majority of the replica set has it, so an election cannot roll it back) and retryable writes
 * (the driver retries a write once on a new primary, without applying it twice). A write concern the connection
 * string names ({@code ?w=1}) is kept, so that it is visible to {@link #weakness} and a production profile refuses it
 * rather than have it silently overridden here.
 */
public final class StoreWriteSafety {

  private static final String MAJORITY = "majority";

  private StoreWriteSafety() {
  }

  /** Majority write concern unless the connection string chose one, retryable writes unless it turned them off. */
  public static void apply(MongoClientSettings.Builder builder) {
    MongoClientSettings current = builder.build();
    WriteConcern concern = current.getWriteConcern();
    if (concern.getWObject() == null) {
      WriteConcern majority = WriteConcern.MAJORITY;
      if (concern.getJournal() != null) {
        majority = majority.withJournal(concern.getJournal());
      }
      Integer timeout = concern.getWTimeout(TimeUnit.MILLISECONDS);
      if (timeout != null) {
        majority = majority.withWTimeout(timeout, TimeUnit.MILLISECONDS);
      }
      builder.writeConcern(majority);
    }
  }

  /**
   * What makes these settings unsafe for production, or empty when they are safe: a write concern other than
   * majority, or retryable writes turned off.
   */
  public static Optional<String> weakness(WriteConcern concern, boolean retryWrites) {
    if (!MAJORITY.equals(concern.getWObject())) {
      return Optional.of("the MongoDB write concern is w=" + (concern.getWObject() == null ? "<server default>"
          : concern.getWObject()) + ", not w=majority (an acknowledged write could be rolled back when the primary"
          + " fails); remove w= from the connection string or set w=majority");
    }
    if (!retryWrites) {
      return Optional.of("MongoDB retryable writes are off (retryWrites=false): a write whose answer is lost in a"
          + " primary's failover fails instead of being retried once on the new primary");
    }
    return Optional.empty();
  }
}
