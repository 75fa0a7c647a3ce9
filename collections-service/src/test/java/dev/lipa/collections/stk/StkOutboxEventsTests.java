package dev.lipa.collections.stk;

import static dev.lipa.common.environment.StackEnvironment.SANDBOX;
import static dev.lipa.collections.stk.StkPushFixtures.REFERENCE;
import static dev.lipa.collections.stk.StkPushFixtures.aPendingStkPush;
import static dev.lipa.collections.stk.StkPushFixtures.restored;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.outbox.OutboxEvent;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Pins the JSON of the records this service produces: they are contracts other services read. */
class StkOutboxEventsTests {

  private static final JsonMapper JSON = JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .build();
  private static final Instant NOW = Instant.parse("2026-03-01T09:00:03Z");
  private final StkOutboxEvents events = new StkOutboxEvents(JSON, Clock.fixed(NOW, ZoneOffset.UTC), SANDBOX);

  @Test
  void acceptedEventGoesToTheCollectionsTopicKeyedByRequestId() {
    StkPush push = aPendingStkPush();

    OutboxEvent event = events.toOutbox(push.events()).getFirst();

    String requestId = push.requestId().toString();
    assertThat(event.topic()).isEqualTo(Topics.COLLECTIONS);
    assertThat(event.key()).isEqualTo(requestId);
    JsonNode json = JSON.readTree(event.payload());
    assertThat(json.get("eventId").stringValue()).isEqualTo(event.eventId());
    assertThat(json).isEqualTo(JSON.readTree("""
        {"eventId":"%s","type":"stk.accepted","version":1,"occurredAt":"2026-03-01T09:00:03Z",
         "organisationId":"org-1",
         "data":{"requestId":"%s","referenceId":"ref-1","phoneNumber":"254712345678","amount":10,
                 "currency":"KSH","status":"PENDING"}}""".formatted(event.eventId(), requestId)));
  }

  @Test
  void aLiveStackWritesTheSameRecordsToTheLiveTopics() {
    StkPush push = restored(aPendingStkPush());
    push.succeed(REFERENCE, "The service request is processed successfully.", "NLJ7RT61SV", UUID.randomUUID(), NOW);
    StkOutboxEvents live = new StkOutboxEvents(JSON, Clock.fixed(NOW, ZoneOffset.UTC), StackEnvironment.LIVE);

    List<OutboxEvent> outbox = live.toOutbox(push.events());

    assertThat(outbox).extracting(OutboxEvent::topic)
        .containsExactly("live.payments.collections.v1", "live.payments.callbacks.v1");
    assertThat(outbox).extracting(e -> JSON.readTree(e.payload()).get("type").stringValue())
        .containsExactly("stk.succeeded", "callback.requested");
  }

  @Test
  void successEmitsTheDomainEventAndTheCallbackRequestWithTheSpecBody() {
    StkPush push = restored(aPendingStkPush());
    UUID callbackId = UUID.randomUUID();
    push.succeed(REFERENCE, "The service request is processed successfully.", "NLJ7RT61SV", callbackId, NOW);

    List<OutboxEvent> outbox = events.toOutbox(push.events());

    String requestId = push.requestId().toString();
    assertThat(outbox).extracting(OutboxEvent::topic).containsExactly(Topics.COLLECTIONS, Topics.CALLBACKS);
    assertThat(outbox).extracting(OutboxEvent::key).containsOnly(requestId);
    assertThat(JSON.readTree(outbox.get(0).payload())).isEqualTo(JSON.readTree("""
        {"eventId":"%s","type":"stk.succeeded","version":1,"occurredAt":"2026-03-01T09:00:03Z",
         "organisationId":"org-1",
         "data":{"requestId":"%s","referenceId":"ref-1","phoneNumber":"254712345678","amount":10,
                 "currency":"KSH","status":"SUCCESS","resultCode":0,
                 "resultDescription":"The service request is processed successfully.","receipt":"NLJ7RT61SV"}}"""
        .formatted(outbox.get(0).eventId(), requestId)));
    assertThat(JSON.readTree(outbox.get(1).payload())).isEqualTo(JSON.readTree("""
        {"eventId":"%s","type":"callback.requested","version":1,"occurredAt":"2026-03-01T09:00:03Z",
         "organisationId":"org-1",
         "data":{"callbackId":"%s","requestId":"%s","url":"https://merchant.example/cb","kind":"stk",
                 "body":{"requestId":"%s","status":"SUCCESS","amount":10,
                         "phoneNumber":"254712345678"}}}"""
        .formatted(outbox.get(1).eventId(), callbackId, requestId, requestId)));
  }

  @Test
  void failureEmitsStkFailedWithoutAReceipt() {
    StkPush push = restored(aPendingStkPush());
    push.fail(REFERENCE, 1032, "Request cancelled by user", UUID.randomUUID(), NOW);

    List<OutboxEvent> outbox = events.toOutbox(push.events());

    JsonNode failed = JSON.readTree(outbox.get(0).payload());
    assertThat(failed.get("type").stringValue()).isEqualTo("stk.failed");
    assertThat(failed.get("data").get("resultCode").intValue()).isEqualTo(1032);
    assertThat(failed.get("data").get("receipt").isNull()).isTrue();
    assertThat(JSON.readTree(outbox.get(1).payload()).get("data").get("body").get("status").stringValue())
        .isEqualTo("FAILED");
  }

  @Test
  void failureEmitsTheDomainEventAndTheCallbackRequestInTheirPinnedShape() {
    StkPush push = restored(aPendingStkPush());
    UUID callbackId = UUID.randomUUID();
    push.fail(REFERENCE, 1032, "Request cancelled by user", callbackId, NOW);

    List<OutboxEvent> outbox = events.toOutbox(push.events());

    String requestId = push.requestId().toString();
    assertThat(outbox).extracting(OutboxEvent::topic).containsExactly(Topics.COLLECTIONS, Topics.CALLBACKS);
    assertThat(JSON.readTree(outbox.get(0).payload())).isEqualTo(JSON.readTree("""
        {"eventId":"%s","type":"stk.failed","version":1,"occurredAt":"2026-03-01T09:00:03Z",
         "organisationId":"org-1",
         "data":{"requestId":"%s","referenceId":"ref-1","phoneNumber":"254712345678","amount":10,
                 "currency":"KSH","status":"FAILED","resultCode":1032,
                 "resultDescription":"Request cancelled by user","receipt":null}}"""
        .formatted(outbox.get(0).eventId(), requestId)));
    assertThat(JSON.readTree(outbox.get(1).payload())).isEqualTo(JSON.readTree("""
        {"eventId":"%s","type":"callback.requested","version":1,"occurredAt":"2026-03-01T09:00:03Z",
         "organisationId":"org-1",
         "data":{"callbackId":"%s","requestId":"%s","url":"https://merchant.example/cb","kind":"stk",
                 "body":{"requestId":"%s","status":"FAILED","amount":10,"phoneNumber":"254712345678"}}}"""
        .formatted(outbox.get(1).eventId(), callbackId, requestId, requestId)));
  }
}
