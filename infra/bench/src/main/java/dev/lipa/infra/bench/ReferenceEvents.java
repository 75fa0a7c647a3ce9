package dev.lipa.infra.bench;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;

/**
 * The records of a reference payment, shaped as collections-service's ({@code StkOutboxEvents}): the platform's event
 * envelope (eventId, type, version, occurredAt, organisationId, data) around {@code stk.accepted},
 * {@code stk.succeeded} / {@code stk.failed} and {@code callback.requested}, whose body is the spec's STK callback.
 */
final class ReferenceEvents {

  static final String ACCEPTED = "stk.accepted";
  static final String SUCCEEDED = "stk.succeeded";
  static final String FAILED = "stk.failed";
  static final String CALLBACK_REQUESTED = "callback.requested";

  private final JsonMapper json;
  private final String organisationId;

  ReferenceEvents(JsonMapper json, String organisationId) {
    this.json = json;
    this.organisationId = organisationId;
  }

  String accepted(String requestId, ReferenceStkRequest request, Instant at) {
    Map<String, Object> data = transaction(requestId, request.phoneNumber(), request.amount());
    data.put("status", "PENDING");
    return envelope(ACCEPTED, at, data);
  }

  /** {@code stk.succeeded} or {@code stk.failed}, as the outcome says. */
  String outcome(ReferenceOutcomes.Pending payment, ReferenceOutcomes.Result result, Instant at) {
    Map<String, Object> data = transaction(payment.requestId(), payment.phoneNumber(), payment.amount());
    data.put("status", result.status());
    data.put("resultCode", result.resultCode());
    data.put("resultDescription", result.resultDescription());
    data.put("receipt", result.receipt());
    return envelope(result.successful() ? SUCCEEDED : FAILED, at, data);
  }

  /** The spec's STK callback body: what the callback request carries and the dispatcher POSTs. */
  static Map<String, Object> callbackBody(ReferenceOutcomes.Pending payment, ReferenceOutcomes.Result result) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", payment.requestId());
    body.put("status", result.status());
    body.put("amount", payment.amount());
    body.put("phoneNumber", payment.phoneNumber());
    return body;
  }

  String callbackRequested(ReferenceOutcomes.Pending payment, String callbackId, Map<String, Object> body,
      Instant at) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("callbackId", callbackId);
    data.put("requestId", payment.requestId());
    data.put("url", payment.callbackUrl());
    data.put("kind", "stk");
    data.put("body", body);
    return envelope(CALLBACK_REQUESTED, at, data);
  }

  String json(Map<String, Object> value) {
    return json.writeValueAsString(value);
  }

  private static Map<String, Object> transaction(String requestId, String phoneNumber, BigDecimal amount) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("requestId", requestId);
    data.put("referenceId", null);
    data.put("phoneNumber", phoneNumber);
    data.put("amount", amount);
    data.put("currency", "KSH");
    return data;
  }

  private String envelope(String type, Instant at, Map<String, Object> data) {
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("eventId", UUID.randomUUID().toString());
    envelope.put("type", type);
    envelope.put("version", 1);
    envelope.put("occurredAt", at.toString());
    envelope.put("organisationId", organisationId);
    envelope.put("data", data);
    return json.writeValueAsString(envelope);
  }
}
