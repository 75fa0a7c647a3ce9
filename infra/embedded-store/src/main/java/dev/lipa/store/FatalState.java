package dev.lipa.store;

import de.bwaldvogel.mongo.exception.MongoServerError;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The first fatal failure of an on-disk store, once met: the handler hears of it once, and every command from then on
 * is refused with its line, so the store never answers some requests and loses others.
 */
final class FatalState {

  private static final int SHUTDOWN_IN_PROGRESS = 91;

  private final StoreFailure handler;
  private final AtomicReference<String> line = new AtomicReference<>();
  private volatile Runnable onFailure = () -> {
  };

  FatalState(StoreFailure handler) {
    this.handler = handler;
  }

  /** Runs after the first failure has been recorded (the group commit wakes the commands waiting for it). */
  void onFailure(Runnable action) {
    onFailure = action;
  }

  /** Records the failure (only the first counts) and tells the handler. */
  void fail(String what, Throwable cause) {
    String failure = "store: FATAL " + what + ": " + describe(cause);
    if (line.compareAndSet(null, failure)) {
      try {
        onFailure.run();
      } finally {
        handler.fatal(failure, cause);
      }
    }
  }

  boolean failed() {
    return line.get() != null;
  }

  /**
   * Throws the refusal every command gets once the store has failed: MongoDB's {@code ShutdownInProgress} (91), which
   * clients take for a store that is going away (the services answer 503), not for a bad command.
   */
  void check() {
    String failure = line.get();
    if (failure != null) {
      throw shuttingDown(failure);
    }
  }

  static MongoServerError shuttingDown(String message) {
    return new MongoServerError(SHUTDOWN_IN_PROGRESS, "ShutdownInProgress", message);
  }

  private static String describe(Throwable cause) {
    String text = cause.toString();
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }
}
