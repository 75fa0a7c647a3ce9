package dev.lipa.common.tracing;

import java.util.regex.Pattern;

/**
 * The W3C trace context across the platform's asynchronous hops, where no instrumented client carries it: the outbox
 * (an event relayed later, or by another replica, continues the trace it was written under), the callback deliveries
 * (the POST to the merchant carries the payment's {@code traceparent}) and work handed to another thread.
 *
 * <p>{@link #NONE} where the service has no tracer: the stored {@code traceparent} is then passed on as it is.
 */
public interface TraceContexts {

  /** The W3C trace context header, and the field that stores it beside an event or a delivery. */
  String TRACEPARENT = "traceparent";

  /** A W3C {@code traceparent} of version 00 with non-zero ids; nothing else is adopted or passed on. */
  Pattern WELL_FORMED = Pattern.compile("00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}");

  /** The value if it is a well-formed {@code traceparent}, else null. */
  static String wellFormed(String value) {
    return value != null && WELL_FORMED.matcher(value).matches() ? value : null;
  }

  /** No tracer: nothing is started, a stored (well-formed) context is passed on unchanged. */
  TraceContexts NONE = new TraceContexts() {
    @Override
    public String current() {
      return null;
    }

    @Override
    public Hop startHop(String parent, String name, String destination) {
      return new Hop() {
        @Override
        public String traceparent() {
          return wellFormed(parent);
        }

        @Override
        public void end(Throwable failure) {
        }
      };
    }

    @Override
    public Runnable carry(Runnable task) {
      return task;
    }

    @Override
    public void consume(String parent, String name, Runnable task) {
      task.run();
    }
  };

  /** The {@code traceparent} of the span current on this thread (sampled or not), or null outside any trace. */
  String current();

  /**
   * Starts the span of one outgoing hop (a relayed event, a callback POST) as a child of {@code parent}, a stored
   * {@code traceparent} (null or unreadable: a child of the current span, else a new trace). Its own
   * {@link Hop#traceparent()} is what the hop carries on; {@link Hop#end} ends it.
   *
   * @param destination where the hop goes (a topic, a host); never a full URL, which may carry a secret
   */
  Hop startHop(String parent, String name, String destination);

  /** The task, run under the span current now on this thread (a delayed task continues the trace that asked for it). */
  Runnable carry(Runnable task);

  /**
   * Runs {@code task} now, on this thread, in a consumer span of its own named {@code name}, a child of {@code parent},
   * the stored {@code traceparent} of the event that caused the work (an event acted on in the process that wrote it,
   * with no Kafka listener to continue its trace). Without a well-formed {@code parent} the task runs outside any
   * new span.
   */
  void consume(String parent, String name, Runnable task);

  /** One outgoing hop's span. */
  interface Hop {

    /** The context to send with the hop; null when there is none. */
    String traceparent();

    /** Ends the span; {@code failure} (or null) marks it failed. */
    void end(Throwable failure);
  }
}
