package dev.lipa.dispatcher.signing;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.dispatcher.delivery.CallbackSigner;
import java.time.Clock;
import java.util.Map;
import java.util.StringJoiner;
import org.springframework.stereotype.Component;

/**
 * Signs every callback attempt the Standard Webhooks way: {@code webhook-timestamp} (unix seconds of this attempt)
 * and {@code webhook-signature} with one {@code v1,...} signature per active secret, space-separated (two during a
 * rotation window). The sender adds {@code webhook-id}, the callbackId, which is the same on every retry.
 */
@Component
class StandardWebhooksSigner implements CallbackSigner {

  private final SigningSecrets secrets;
  private final Clock clock;

  StandardWebhooksSigner(SigningSecrets secrets, Clock clock) {
    this.secrets = secrets;
    this.clock = clock;
  }

  @Override
  public Map<String, String> headers(OrganisationId organisationId, String callbackId, String body) {
    long timestamp = clock.instant().getEpochSecond();
    StringJoiner signatures = new StringJoiner(" ");
    for (byte[] key : secrets.keys(organisationId)) {
      signatures.add(WebhookSignature.sign(key, callbackId, timestamp, body));
    }
    return Map.of("webhook-timestamp", Long.toString(timestamp), "webhook-signature", signatures.toString());
  }
}
