package dev.lipa.dispatcher.delivery;

import java.time.Instant;

/**
 * One callback owed to a merchant, as claimed for an attempt. It decides what an attempt's outcome means (delivered,
 * retry later, dead); the store applies that decision only if this claim still holds the lease.
 *
 * @param attempts attempts made before this one
 * @param leaseToken identifies the claim that holds the lease; the result of an attempt is written only under it
 */
public record Delivery(
    String callbackId, String organisationId, String requestId, String url, String body, String kind,
    DeliveryStatus status, int attempts, String leaseToken) {

  /** A delivery just accepted from the intake, leased to the attempt that is about to be made right away. */
  static Delivery accepted(CallbackRequest request, String leaseToken) {
    return new Delivery(request.callbackId(), request.organisationId(), request.requestId(), request.url(),
        request.body(), request.kind(), DeliveryStatus.PENDING, 0, leaseToken);
  }

  /**
   * What the attempt that started at {@code startedAt} and ended at {@code endedAt} changes. Only a PENDING delivery
   * can be attempted: a late result for a delivery that is already DELIVERED or DEAD is refused.
   */
  public Transition afterAttempt(AttemptOutcome outcome, Instant startedAt, Instant endedAt, RetrySchedule schedule) {
    if (status != DeliveryStatus.PENDING) {
      throw new IllegalStateException("delivery " + callbackId + " is " + status + ", not PENDING");
    }
    int number = attempts + 1;
    Attempt attempt = new Attempt(number, startedAt, url, outcome.statusCode(), outcome.latencyMs(), outcome.error(),
        outcome.response());
    if (outcome.succeeded()) {
      return new Transition(DeliveryStatus.DELIVERED, attempt, null, endedAt);
    }
    if (!outcome.retryable()) {
      return new Transition(DeliveryStatus.DEAD, attempt, null, endedAt);
    }
    return schedule.nextAttemptAt(number, endedAt)
        .map(next -> new Transition(DeliveryStatus.PENDING, attempt, next, endedAt))
        .orElseGet(() -> new Transition(DeliveryStatus.DEAD, attempt, null, endedAt));
  }
}
