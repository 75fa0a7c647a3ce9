package dev.lipa.dispatcher.delivery;

import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;
import java.util.List;

/**
 * A callback as merchants and operators see it: where it stands and every attempt made (the body is not repeated).
 *
 * @param nextAttemptAt when the next attempt is due; null unless PENDING
 * @param deadReason why it is DEAD; null otherwise
 */
public record DeliveryView(
    String callbackId, OrganisationId organisationId, String requestId, String kind, String url, DeliveryStatus status,
    int attempts, Instant createdAt, Instant nextAttemptAt, Instant deliveredAt, Instant deadAt, String deadReason,
    List<Attempt> attemptLog) {
}
