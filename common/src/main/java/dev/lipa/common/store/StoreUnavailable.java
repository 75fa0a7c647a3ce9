package dev.lipa.common.store;

import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoServerUnavailableException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoStalePrimaryException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Tells a failure of the service's store being away (unreachable, shutting down, between primaries, too slow to
 * answer) from a fault of the request or the code, so that the first is answered 503 (try again) and never 500. A
 * service met these as 500s while the store restarted: the operations in flight when it went (a socket read cut short)
 * and those that found the connection pool cleared failed at once, where the rest waited for a server and met the
 * gateway's timeout (503).
 */
public final class StoreUnavailable {

  /** The message of the 503 (the envelope's, or the checkout error body's). */
  public static final String MESSAGE = "the service's store is unavailable; try again later";

  /** MongoDB's codes for a server going away, stepping down, or giving up on time (shutdown, network, election). */
  private static final Set<Integer> CODES = Set.of(6, 7, 50, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435,
      13436);

  private StoreUnavailable() {
  }

  /** Whether the failure, or any failure it was caused by, says the store is unavailable. */
  public static boolean causedBy(Throwable failure) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      if (is(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean is(Throwable failure) {
    if (failure instanceof MongoSocketException || failure instanceof MongoTimeoutException
        || failure instanceof MongoConnectionPoolClearedException || failure instanceof MongoServerUnavailableException
        || failure instanceof MongoInterruptedException || failure instanceof MongoNotPrimaryException
        || failure instanceof MongoNodeIsRecoveringException || failure instanceof MongoStalePrimaryException
        || failure instanceof MongoWriteConcernException || failure instanceof MongoExecutionTimeoutException) {
      return true;
    }
    if (failure instanceof MongoException mongo
        && (mongo.hasErrorLabel("RetryableWriteError")
        || mongo.hasErrorLabel(MongoException.TRANSIENT_TRANSACTION_ERROR_LABEL))) {
      return true;
    }
    return failure instanceof MongoServerException server && CODES.contains(server.getCode());
  }
}
