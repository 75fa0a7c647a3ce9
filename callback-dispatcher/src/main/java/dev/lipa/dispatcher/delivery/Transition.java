package dev.lipa.dispatcher.delivery;

import java.time.Instant;

/**
 * The change one attempt makes to its delivery: the attempt to log and the state that follows.
 *
 * @param nextAttemptAt when to try again; null unless the delivery stays PENDING
 * @param at when the attempt ended
 * @param deadReason why the delivery is DEAD (shown to operators and merchants); null unless DEAD
 */
public record Transition(DeliveryStatus status, Attempt attempt, Instant nextAttemptAt, Instant at, String deadReason) {
}
