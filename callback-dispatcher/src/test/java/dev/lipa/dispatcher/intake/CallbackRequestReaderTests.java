package dev.lipa.dispatcher.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.dispatcher.delivery.CallbackRequest;
import dev.lipa.dispatcher.intake.CallbackRequestReader.MalformedCallbackRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

class CallbackRequestReaderTests {

  // the platform's conventions (JsonAutoConfiguration in common)
  private final CallbackRequestReader reader = new CallbackRequestReader(JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .build());

  private static final String BODY =
      "{\"requestId\":\"r-1\",\"status\":\"SUCCESS\",\"amount\":100.50,\"phoneNumber\":\"254708374149\"}";

  private static String record(String type, String data) {
    return "{\"eventId\":\"e-1\",\"type\":\"" + type + "\",\"version\":1,\"occurredAt\":\"2026-01-15T09:00:00Z\","
        + "\"organisationId\":\"org-1\",\"data\":" + data + ",\"addedLater\":true}";
  }

  @Test
  void readsTheDeliveryAndKeepsTheBodyAsSent() {
    CallbackRequest request = reader.read(record("callback.requested",
        "{\"callbackId\":\"cb-1\",\"requestId\":\"r-1\",\"url\":\"https://m.example/cb\",\"kind\":\"stk\","
            + "\"body\":" + BODY + "}")).orElseThrow();

    assertThat(request).isEqualTo(
        new CallbackRequest(OrganisationId.of("org-1"), "r-1", "cb-1", "https://m.example/cb", BODY, "stk", "e-1"));
  }

  @Test
  void ignoresOtherEventTypes() {
    assertThat(reader.read(record("callback.cancelled", "{}"))).isEmpty();
  }

  static Stream<Named<String>> malformed() {
    return Stream.of(
        Named.named("not JSON", "{nope"),
        Named.named("not an object", "[1,2]"),
        Named.named("body missing", record("callback.requested",
            "{\"callbackId\":\"cb-1\",\"url\":\"https://m.example/cb\"}")),
        Named.named("body not an object", record("callback.requested",
            "{\"callbackId\":\"cb-1\",\"url\":\"https://m.example/cb\",\"body\":\"text\"}")),
        Named.named("callbackId missing", record("callback.requested",
            "{\"url\":\"https://m.example/cb\",\"body\":{}}")),
        Named.named("url missing", record("callback.requested", "{\"callbackId\":\"cb-1\",\"body\":{}}")));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void refusesARecordThatCannotBecomeADelivery(String value) {
    assertThatThrownBy(() -> reader.read(value)).isInstanceOf(MalformedCallbackRequest.class);
  }
}
