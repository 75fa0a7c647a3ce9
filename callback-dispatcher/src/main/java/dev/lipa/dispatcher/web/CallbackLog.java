package dev.lipa.dispatcher.web;

import dev.lipa.dispatcher.delivery.Attempt;
import dev.lipa.dispatcher.delivery.DeliveryView;
import java.time.Instant;
import java.util.List;

/**
 * A callback in the delivery log (times are ISO-8601 instants in UTC).
 *
 * @param callbackId also the {@code webhook-id} header of every attempt
 */
record CallbackLog(String callbackId, String requestId, String organisationId, String kind, String url,
    String status, int attempts, Instant createdAt, Instant nextAttemptAt, Instant deliveredAt, Instant deadAt,
    String deadReason, List<AttemptLog> attemptLog) {

  /** One attempt: when, what the merchant answered (statusCode null when no answer came), how long it took. */
  record AttemptLog(int attempt, Instant at, String url, Integer statusCode, long latencyMs, String error,
      String response) {

    static AttemptLog of(Attempt attempt) {
      return new AttemptLog(attempt.number(), attempt.at(), attempt.url(), attempt.statusCode(), attempt.latencyMs(),
          attempt.error(), attempt.response());
    }
  }

  static CallbackLog of(DeliveryView view) {
    return new CallbackLog(view.callbackId(), view.requestId(), view.organisationId().value(), view.kind(),
        view.url(), view.status().name(), view.attempts(), view.createdAt(), view.nextAttemptAt(),
        view.deliveredAt(), view.deadAt(), view.deadReason(), view.attemptLog().stream().map(AttemptLog::of).toList());
  }
}
