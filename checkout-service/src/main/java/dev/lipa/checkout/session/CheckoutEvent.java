package dev.lipa.checkout.session;

import java.time.Instant;
import java.util.UUID;

/**
 * What a transition of a session caused; {@link CheckoutOutboxEvents} turns it into Kafka records.
 *
 * @param type the event type on payments.checkout.v1, or {@link #CALLBACK_REQUESTED}
 * @param attempt the attempt concerned, null when none
 * @param callbackId set on {@link #CALLBACK_REQUESTED}: the stable id of the merchant callback
 * @param latePayment set on {@link #LATE_PAYMENT} and its callback request: the payment concerned
 */
public record CheckoutEvent(String type, PaymentAttempt attempt, UUID callbackId, Instant occurredAt,
    LatePayment latePayment) {

  public CheckoutEvent(String type, PaymentAttempt attempt, UUID callbackId, Instant occurredAt) {
    this(type, attempt, callbackId, occurredAt, null);
  }

  public static final String CREATED = "checkout.created";
  public static final String REQUIRES_ACTION = "checkout.requires_action";
  public static final String PROCESSING = "checkout.processing";
  public static final String ATTEMPT_FAILED = "checkout.attempt_failed";
  public static final String SUCCEEDED = "checkout.succeeded";
  public static final String FAILED = "checkout.failed";
  public static final String EXPIRED = "checkout.expired";
  public static final String LATE_PAYMENT = "checkout.late_payment";
  public static final String CALLBACK_REQUESTED = "callback.requested";
}
