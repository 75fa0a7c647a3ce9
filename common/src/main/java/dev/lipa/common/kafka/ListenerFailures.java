package dev.lipa.common.kafka;

import java.util.List;
import org.springframework.core.convert.ConversionException;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.listener.TimestampedException;
import org.springframework.kafka.support.serializer.DeserializationException;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.messaging.handler.invocation.MethodArgumentResolutionException;
import tools.jackson.core.exc.StreamReadException;

/**
 * Tells the two kinds of listener failure apart. <b>Deterministic</b>: the record itself is at fault and every retry
 * would fail the same way ({@link UnprocessableRecordException}, JSON that does not parse, and what spring-kafka itself
 * treats as fatal: a record it cannot deserialize or convert for the listener method). <b>Everything else</b> is taken
 * for an infrastructure failure (the store or the broker unavailable, a timeout, a bug that a fix and a restart cure)
 * and retried: a record is dead-lettered only when it is proven unprocessable, never because a store was slow.
 */
public final class ListenerFailures {

  private static final List<Class<? extends Throwable>> DETERMINISTIC = List.of(
      UnprocessableRecordException.class,
      StreamReadException.class,
      DeserializationException.class,
      MessageConversionException.class,
      ConversionException.class,
      MethodArgumentResolutionException.class,
      NoSuchMethodException.class,
      ClassCastException.class);

  private ListenerFailures() {
  }

  /** Whether the failure, or anything in its cause chain, says the record can never be processed. */
  public static boolean isDeterministic(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      for (Class<? extends Throwable> type : DETERMINISTIC) {
        if (type.isInstance(t)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a batch listener named the failed record ({@link BatchListenerFailedException}, see {@link RecordBatches}). */
  public static boolean namesRecord(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof BatchListenerFailedException) {
        return true;
      }
    }
    return false;
  }

  /** What the listener itself threw, without the container's wrappers. */
  public static Throwable reason(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof ListenerExecutionFailedException || t instanceof TimestampedException
        || t instanceof BatchListenerFailedException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
