package dev.lipa.common.tracing;

import org.slf4j.MDC;

/**
 * The MDC fields every log line of a request or a payment carries, besides the trace and span ids the tracer puts
 * there: {@value #ORGANISATION} (from the verified token, or the record being processed) and {@value #REQUEST_ID} (the
 * payment's). Set where the code knows them, and always removed again: a {@code try}-with-resources around the work.
 * Never a phone number, a token or a secret: the log file keeps every MDC field (Spring Boot's structured format).
 */
public final class LogContext implements AutoCloseable {

  /** The organisation the work is for. */
  public static final String ORGANISATION = "organisation";
  /** The payment's requestId. */
  public static final String REQUEST_ID = "requestId";

  private final String[] keys;
  private final String[] previous;

  private LogContext(String... keysAndValues) {
    keys = new String[keysAndValues.length / 2];
    previous = new String[keys.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = keysAndValues[2 * i];
      previous[i] = MDC.get(keys[i]);
      String value = keysAndValues[2 * i + 1];
      if (value != null) {
        MDC.put(keys[i], value);
      }
    }
  }

  /** The organisation in the MDC until closed (a null leaves the MDC as it is). */
  public static LogContext organisation(Object organisationId) {
    return new LogContext(ORGANISATION, text(organisationId));
  }

  /** The organisation and the payment's requestId in the MDC until closed (nulls leave the MDC as it is). */
  public static LogContext payment(Object organisationId, Object requestId) {
    return new LogContext(ORGANISATION, text(organisationId), REQUEST_ID, text(requestId));
  }

  /** Puts back what the MDC held before (nothing, on a request's own thread). */
  @Override
  public void close() {
    for (int i = 0; i < keys.length; i++) {
      if (previous[i] == null) {
        MDC.remove(keys[i]);
      } else {
        MDC.put(keys[i], previous[i]);
      }
    }
  }

  private static String text(Object value) {
    return value == null ? null : value.toString();
  }
}
