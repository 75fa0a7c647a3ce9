package dev.lipa.dispatcher.delivery;

import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;

/**
 * One callback owed to a merchant, as claimed for an attempt. It decides what an attempt's outcome means (delivered,
 * retry later, dead); the store applies that decision only if this claim still holds the lease.
 *
 * @param attempts attempts made before this one, over the callback's whole life (numbers the attempt log)
 * @param roundAttempts attempts made since the callback was last (re)scheduled from the start: the first delivery,
 *     or a merchant's redelivery, or an operator's replay; the retry schedule counts these
 * @param leaseToken identifies the claim that holds the lease; the result of an attempt is written only under it
 * @param traceparent the payment's W3C trace context, kept with the delivery so that every attempt (retries, replays)
 *     continues that trace; null when the request came outside a trace
 */
public record Delivery(
    String callbackId, OrganisationId organisationId, String requestId, String url, String body, String kind,
    DeliveryStatus status, int attempts, int roundAttempts, String leaseToken, String traceparent) {

  /** A delivery outside any trace. */
  public Delivery(String callbackId, OrganisationId organisationId, String requestId, String url, String body,
      String kind, DeliveryStatus status, int attempts, int roundAttempts, String leaseToken) {
    this(callbackId, organisationId, requestId, url, body, kind, status, attempts, roundAttempts, leaseToken, null);
  }

  static final String SCHEDULE_EXHAUSTED = "retry schedule exhausted";
  static final String ENDPOINT_GONE = "the endpoint answered 410 Gone";
  static final String ENDPOINT_DISABLED = "not sent: the endpoint is disabled since it answered 410 Gone";

  /** A delivery just accepted from the intake, leased to the attempt that is about to be made right away. */
  static Delivery accepted(CallbackRequest request, String leaseToken) {
    return new Delivery(request.callbackId(), request.organisationId(), request.requestId(), request.url(),
        request.body(), request.kind(), DeliveryStatus.PENDING, 0, 0, leaseToken, request.traceparent());
  }

  /**
   * What the attempt that started at {@code startedAt} and ended at {@code endedAt} changes. Only a PENDING delivery
   * can be attempted: a late result for a delivery that is already DELIVERED or DEAD is refused.
   */
  public Transition afterAttempt(AttemptOutcome outcome, Instant startedAt, Instant endedAt, RetrySchedule schedule) {
    requirePending();
    Attempt attempt = new Attempt(attempts + 1, startedAt, url, outcome.statusCode(), outcome.latencyMs(),
        outcome.error(), outcome.response());
    if (outcome.succeeded()) {
      return new Transition(DeliveryStatus.DELIVERED, attempt, null, endedAt, null);
    }
    if (outcome.gone()) {
      return new Transition(DeliveryStatus.DEAD, attempt, null, endedAt, ENDPOINT_GONE);
    }
    if (!outcome.retryable()) {
      return new Transition(DeliveryStatus.DEAD, attempt, null, endedAt, outcome.error());
    }
    return schedule.nextAttemptAt(roundAttempts + 1, endedAt, outcome.retryAfter())
        .map(next -> new Transition(DeliveryStatus.PENDING, attempt, next, endedAt, null))
        .orElseGet(() -> new Transition(DeliveryStatus.DEAD, attempt, null, endedAt, SCHEDULE_EXHAUSTED));
  }

  /**
   * The callback's endpoint was disabled by an earlier 410 Gone: it goes DEAD without a request, and the log says
   * so. A redelivery or replay re-enables the endpoint.
   */
  public Transition endpointDisabled(Instant now) {
    requirePending();
    Attempt notSent = new Attempt(attempts + 1, now, url, null, 0, ENDPOINT_DISABLED, null);
    return new Transition(DeliveryStatus.DEAD, notSent, null, now, ENDPOINT_DISABLED);
  }

  private void requirePending() {
    if (status != DeliveryStatus.PENDING) {
      throw new IllegalStateException("delivery " + callbackId + " is " + status + ", not PENDING");
    }
  }
}
