package dev.lipa.store;

import org.slf4j.LoggerFactory;

/**
 * What the process does when its on-disk store can no longer keep its promise that an answered write is in the file:
 * the H2 writer died, a commit failed, the file was closed under the store, or the heap ran out. The store itself
 * refuses every command from then on; the handler decides the rest (the store process halts, a test records it).
 */
@FunctionalInterface
public interface StoreFailure {

  /**
   * Logs the line at ERROR and leaves the process running: the store refuses every command from then on. For tests and
   * tools; the store process halts instead (see {@code EmbeddedStore}).
   */
  StoreFailure LOG = (line, cause) -> LoggerFactory.getLogger(StoreFailure.class).error(line, cause);

  /**
   * Called once, on the first failure, from the thread that met it.
   *
   * @param line one line that says what failed, starting with {@code store: FATAL}
   * @param cause what was thrown
   */
  void fatal(String line, Throwable cause);
}
