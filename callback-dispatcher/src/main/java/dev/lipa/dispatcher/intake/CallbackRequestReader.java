package dev.lipa.dispatcher.intake;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.kafka.UnprocessableRecordException;
import dev.lipa.dispatcher.delivery.CallbackRequest;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a record of {@code payments.callbacks.v1} (an EventEnvelope) into a {@link CallbackRequest}. Reads only the
 * fields it needs and ignores the rest, so producers may add fields without breaking the dispatcher.
 */
final class CallbackRequestReader {

  static final String TYPE = "callback.requested";

  private final JsonMapper json;

  CallbackRequestReader(JsonMapper json) {
    this.json = json;
  }

  /**
   * @return empty for records of other types, which this consumer does not handle
   * @throws MalformedCallbackRequest when a {@code callback.requested} record lacks what a delivery needs
   */
  Optional<CallbackRequest> read(String value) {
    JsonNode envelope;
    try {
      envelope = json.readTree(value);
    } catch (JacksonException e) {
      throw new MalformedCallbackRequest("not JSON: " + e.getOriginalMessage());
    }
    if (envelope == null || !envelope.isObject()) {
      throw new MalformedCallbackRequest("not a JSON object");
    }
    if (!TYPE.equals(text(envelope, "type"))) {
      return Optional.empty();
    }
    JsonNode data = envelope.path("data");
    JsonNode body = data.path("body");
    if (!body.isObject()) {
      throw new MalformedCallbackRequest("data.body must be a JSON object");
    }
    try {
      String organisationId = text(envelope, "organisationId");
      return Optional.of(new CallbackRequest(
          organisationId == null || organisationId.isEmpty() ? null : OrganisationId.of(organisationId),
          text(data, "requestId"),
          text(data, "callbackId"), text(data, "url"),
          // written back in the order received, with decimals as they were (read as BigDecimal, written plainly)
          json.writeValueAsString(body), text(data, "kind"), text(envelope, "eventId")));
    } catch (IllegalArgumentException e) {
      throw new MalformedCallbackRequest(e.getMessage());
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isString() ? value.stringValue() : null;
  }

  /** A record that can never become a delivery: it goes to the dead letters instead of blocking its partition. */
  static final class MalformedCallbackRequest extends UnprocessableRecordException {

    MalformedCallbackRequest(String message) {
      super(message);
    }
  }
}
