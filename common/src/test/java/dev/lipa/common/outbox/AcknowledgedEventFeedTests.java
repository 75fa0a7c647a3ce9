package dev.lipa.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.tracing.TestTracing;
import dev.lipa.common.tracing.TraceContexts;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class AcknowledgedEventFeedTests {

  private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  private final TestTracing tracing = TestTracing.sampled();
  private final TraceContexts contexts = tracing.contexts();
  private final List<String> acted = new ArrayList<>();
  private final List<String> tracesActedIn = new ArrayList<>();
  private final AcknowledgedEventFeed<String> feed = new AcknowledgedEventFeed<>("sandbox rail", "\"x.accepted\"",
      "x.accepted"::equals, envelope -> envelope.path("data").path("requestId").asString(),
      requestId -> {
        acted.add(requestId);
        tracesActedIn.add(contexts.current());
      }, JsonMapper.builder().build(), contexts);

  private static OutboxEvent event(String type, String data, String traceparent) {
    return new OutboxEvent(UUID.randomUUID().toString(), "payments.x.v1", "k",
        "{\"eventId\":\"e\",\"type\":\"%s\",\"data\":%s}".formatted(type, data), traceparent);
  }

  @Test
  void actsOnAWantedEventInAChildSpanOfItsTrace() {
    feed.accept(event("x.accepted", "{\"requestId\":\"r-1\"}", TRACE));

    assertThat(acted).containsExactly("r-1");
    assertThat(TestTracing.traceId(tracesActedIn.getFirst())).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(contexts.current()).isNull();
  }

  @Test
  void skipsOtherTypesAndEventsThatOnlyMentionTheWantedOne() {
    feed.accept(event("x.succeeded", "{\"requestId\":\"r-2\"}", TRACE));
    feed.accept(event("x.succeeded", "{\"requestId\":\"r-3\",\"note\":\"\\\"x.accepted\\\"\"}", TRACE));

    assertThat(acted).isEmpty();
  }

  @Test
  void anEventItCannotReadIsSkippedWithoutThrowing() {
    feed.accept(new OutboxEvent("e-1", "payments.x.v1", "k", "{\"type\":\"x.accepted\", not json", null));
    AcknowledgedEventFeed<String> failingReader = new AcknowledgedEventFeed<>("sandbox rail", "\"x.accepted\"",
        "x.accepted"::equals, envelope -> {
          throw new IllegalArgumentException("no requestId");
        }, acted::add, JsonMapper.builder().build(), contexts);
    failingReader.accept(event("x.accepted", "{}", null));

    assertThat(acted).isEmpty();
  }
}
