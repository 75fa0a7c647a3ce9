package dev.lipa.dispatcher.delivery;

import dev.lipa.common.ids.OrganisationId;
import java.util.Objects;

/**
 * A request to deliver one callback, as the intake read it from {@code payments.callbacks.v1}.
 *
 * @param callbackId stable id of this callback: the delivery's key, and the {@code webhook-id} merchants see
 * @param body the exact JSON text to POST
 * @param kind what produced it ({@code stk}, ...), for the log only; the dispatcher knows nothing of domains
 * @param eventId the Kafka event that asked for it, kept for tracing
 * @param traceparent the W3C trace context of the payment that asked for it (the intake's span for its record), sent
 *     with every attempt's POST; null outside a trace
 */
public record CallbackRequest(
    OrganisationId organisationId, String requestId, String callbackId, String url, String body, String kind,
    String eventId, String traceparent) {

  /** A request read outside any trace. */
  public CallbackRequest(OrganisationId organisationId, String requestId, String callbackId, String url, String body,
      String kind, String eventId) {
    this(organisationId, requestId, callbackId, url, body, kind, eventId, null);
  }

  public CallbackRequest {
    requireText("organisationId", organisationId == null ? null : organisationId.value());
    requireText("callbackId", callbackId);
    requireText("url", url);
    requireText("body", body);
  }

  /** This request under that trace context. */
  public CallbackRequest underTrace(String context) {
    return new CallbackRequest(organisationId, requestId, callbackId, url, body, kind, eventId, context);
  }

  private static void requireText(String field, String value) {
    if (Objects.requireNonNullElse(value, "").isBlank()) {
      throw new IllegalArgumentException(field + " is required");
    }
  }
}
