package dev.lipa.dispatcher.delivery;

import dev.lipa.common.ids.OrganisationId;
import java.util.Map;

/**
 * Adds authentication headers to an outgoing callback. The Standard Webhooks signer (webhook-timestamp and
 * webhook-signature: {@code v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">} with the organisation's secrets)
 * replaces the unsigned default by declaring a bean of this type.
 */
public interface CallbackSigner {

  /**
   * The headers to add to this attempt. Called once per attempt, right before sending, so a timestamp in a
   * signature is fresh on every retry while {@code callbackId} (the webhook-id) stays the same.
   */
  Map<String, String> headers(OrganisationId organisationId, String callbackId, String body);

  /** Until signing secrets exist, callbacks go out unsigned. */
  static CallbackSigner unsigned() {
    return (organisationId, callbackId, body) -> Map.of();
  }
}
