package dev.lipa.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The trace context of the platform's own hops, on a real tracer. */
class TraceContextsTests {

  private static final String STORED = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  private final TestTracing tracing = TestTracing.sampled();
  private final TraceContexts contexts = tracing.contexts();

  @Test
  void aHopIsAChildSpanOfTheStoredContext() {
    TraceContexts.Hop hop = contexts.startHop(STORED, "outbox relay", "payments.collections.v1");
    hop.end(null);

    assertThat(TestTracing.traceId(hop.traceparent())).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(TestTracing.spanId(hop.traceparent())).isNotEqualTo("00f067aa0ba902b7");
  }

  @Test
  void aMalformedOrForgedContextIsNeverAdoptedNorPassedOn() {
    for (String forged : new String[] {STORED + "\r\nX-Injected: 1",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-" + "0".repeat(32) + "-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", ""}) {
      TraceContexts.Hop hop = contexts.startHop(forged, "callback POST", "merchant.example");
      assertThat(hop.traceparent()).as(forged).matches(TraceContexts.WELL_FORMED.pattern())
          .doesNotContain("4bf92f3577b34da6a3ce929d0e0e4736");
      assertThat(TraceContexts.NONE.startHop(forged, "callback POST", "merchant.example").traceparent()).as(forged)
          .isNull();
    }
    assertThat(TraceContexts.NONE.startHop(STORED, "callback POST", "merchant.example").traceparent())
        .isEqualTo(STORED);
  }

  @Test
  void aCarriedTaskRunsInTheTraceThatScheduledItOnAnotherThread() throws Exception {
    AtomicReference<String> inside = new AtomicReference<>();
    Runnable[] carried = new Runnable[1];
    String scheduling = tracing.inNewTrace(() -> carried[0] = contexts.carry(() -> inside.set(contexts.current())));

    CompletableFuture.runAsync(carried[0]).get();

    assertThat(TestTracing.traceId(inside.get())).isEqualTo(scheduling);
    assertThat(contexts.current()).as("nothing left current on the test's thread").isNull();
  }

  @Test
  void workCausedByAStoredEventRunsInAChildSpanOfItAndLeavesNothingCurrent() {
    AtomicReference<String> inside = new AtomicReference<>();

    contexts.consume(STORED, "sandbox rail", () -> inside.set(contexts.current()));

    assertThat(TestTracing.traceId(inside.get())).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(TestTracing.spanId(inside.get())).isNotEqualTo("00f067aa0ba902b7");
    assertThat(contexts.current()).isNull();
    // a forged or missing context starts nothing: the work runs as it is
    for (String forged : new String[] {null, STORED + "\r\nX-Injected: 1",
        "00-" + "0".repeat(32) + "-00f067aa0ba902b7-01"}) {
      inside.set("unset");
      contexts.consume(forged, "sandbox rail", () -> inside.set(contexts.current()));
      assertThat(inside.get()).as(String.valueOf(forged)).isNull();
    }
  }

  @Test
  void outsideAnyTraceThereIsNoContextAndATaskRunsAsItIs() {
    Runnable task = () -> { };

    assertThat(contexts.current()).isNull();
    assertThat(contexts.carry(task)).isSameAs(task);
  }
}
