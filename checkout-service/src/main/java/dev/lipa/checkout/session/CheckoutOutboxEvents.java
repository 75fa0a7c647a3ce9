package dev.lipa.checkout.session;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.outbox.OutboxEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka contracts of checkout (this service owns them): {@code checkout.*} events on {@value Topics#CHECKOUT} and
 * {@code callback.requested} (kind {@value #CALLBACK_KIND}) on {@value Topics#CALLBACKS}, every record keyed by the
 * session id (the callback's {@code requestId}).
 */
@Component
public class CheckoutOutboxEvents {

  public static final String CALLBACK_KIND = "checkout";

  private final JsonMapper json;
  private final StackEnvironment stack;

  public CheckoutOutboxEvents(JsonMapper json, StackEnvironment stack) {
    this.json = json;
    this.stack = stack;
  }

  public List<OutboxEvent> toOutbox(CheckoutSession session, List<CheckoutEvent> events) {
    return events.stream().map(e -> toOutbox(session, e)).toList();
  }

  OutboxEvent toOutbox(CheckoutSession session, CheckoutEvent event) {
    CheckoutSession.Details d = session.details();
    String key = d.id().toString();
    if (CheckoutEvent.CALLBACK_REQUESTED.equals(event.type())) {
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("callbackId", event.callbackId().toString());
      data.put("requestId", key);
      data.put("url", d.callbackUrl());
      data.put("kind", CALLBACK_KIND);
      data.put("body", callbackBody(session, event));
      return record(stack.topic(Topics.CALLBACKS), key, event, d.organisationId(), data);
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("checkoutSessionId", key);
    data.put("checkoutRef", d.checkoutRef());
    data.put("status", statusAfter(event, session).name());
    data.put("amount", d.amount());
    data.put("currency", d.currency());
    data.put("externalReference", d.externalReference());
    data.put("paymentReference", d.paymentReference());
    PaymentAttempt attempt = event.attempt();
    if (attempt != null) {
      Map<String, Object> a = new LinkedHashMap<>();
      a.put("number", attempt.number());
      a.put("paymentMethod", attempt.method().name());
      a.put("status", attempt.status().name());
      a.put("cardBrand", attempt.cardBrand());
      a.put("cardLast4", attempt.cardLast4());
      a.put("stkRequestId", attempt.stkRequestId() == null ? null : attempt.stkRequestId().toString());
      a.put("reason", attempt.reason());
      data.put("attempt", a);
    }
    if (event.latePayment() != null) {
      data.put("latePayment", latePayment(event.latePayment(), d));
    }
    return record(stack.topic(Topics.CHECKOUT), key, event, d.organisationId(), data);
  }

  /** A late payment as the event and the callback show it: the push that was paid, how much, its receipt, when. */
  private static Map<String, Object> latePayment(LatePayment payment, CheckoutSession.Details d) {
    Map<String, Object> late = new LinkedHashMap<>();
    late.put("attempt", payment.attempt());
    late.put("stkRequestId", payment.stkRequestId().toString());
    late.put("amount", payment.amount());
    late.put("currency", d.currency());
    late.put("receipt", payment.receipt());
    late.put("recordedAt", payment.recordedAt().toString());
    return late;
  }

  /**
   * The body POSTed to the merchant's callbackUrl on SUCCEEDED, FAILED and EXPIRED (documented in the README):
   * {@code id, checkoutRef, status, amount, currency, externalReference, paymentReference, paymentMethod, paidAt,
   * occurredAt}; and on a late payment the same with {@code latePayment} (the session's status unchanged, so a merchant
   * that reads only {@code status} still sees the order as it was, and one that reads {@code latePayment} sees the
   * money).
   */
  static Map<String, Object> callbackBody(CheckoutSession session, CheckoutEvent event) {
    CheckoutSession.Details d = session.details();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", d.id().toString());
    body.put("checkoutRef", d.checkoutRef());
    body.put("status", session.status().name());
    body.put("amount", d.amount());
    body.put("currency", d.currency());
    body.put("externalReference", d.externalReference());
    body.put("paymentReference", d.paymentReference());
    PaymentAttempt attempt = event.attempt();
    body.put("paymentMethod", attempt == null ? null : attempt.method().name());
    body.put("paidAt", session.paidAt() == null ? null : session.paidAt().toString());
    body.put("occurredAt", event.occurredAt().toString());
    if (event.latePayment() != null) {
      body.put("latePayment", latePayment(event.latePayment(), d));
    }
    return body;
  }

  /** The session's status right after the transition that caused the event. */
  private static SessionStatus statusAfter(CheckoutEvent event, CheckoutSession session) {
    return switch (event.type()) {
      case CheckoutEvent.CREATED -> SessionStatus.PENDING;
      case CheckoutEvent.PROCESSING -> SessionStatus.PROCESSING;
      case CheckoutEvent.REQUIRES_ACTION -> SessionStatus.REQUIRES_CUSTOMER_ACTION;
      case CheckoutEvent.ATTEMPT_FAILED ->
          session.status() == SessionStatus.FAILED ? SessionStatus.FAILED : SessionStatus.PENDING;
      default -> session.status();
    };
  }

  private OutboxEvent record(String topic, String key, CheckoutEvent event, OrganisationId organisationId,
      Map<String, Object> data) {
    EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), event.type(), 1, event.occurredAt(),
        organisationId.value(), data);
    return OutboxEvent.of(topic, key, envelope, json);
  }
}
