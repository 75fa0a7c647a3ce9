package dev.lipa.payouts.payout;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.outbox.OutboxEvent;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka contracts of payouts (this service owns them): {@code <kind>.accepted}, {@code <kind>.succeeded} and
 * {@code <kind>.failed} on {@value Topics#PAYOUTS} with kind {@code sendmoney}, {@code till} or {@code paybill}, and
 * {@code callback.requested} on {@value Topics#CALLBACKS} carrying the spec's exact callback body; every record keyed
 * by the requestId.
 */
@Component
public class PayoutOutboxEvents {

  public static final String ACCEPTED = "accepted";
  public static final String SUCCEEDED = "succeeded";
  public static final String FAILED = "failed";
  public static final String CALLBACK_REQUESTED = "callback.requested";

  private final JsonMapper json;
  private final StackEnvironment stack;
  private final Clock clock;

  public PayoutOutboxEvents(JsonMapper json, Clock clock, StackEnvironment stack) {
    this.json = json;
    this.clock = clock;
    this.stack = stack;
  }

  public List<OutboxEvent> toOutbox(List<PayoutEvent> events) {
    return events.stream().map(this::toOutbox).toList();
  }

  OutboxEvent toOutbox(PayoutEvent event) {
    Payout payout = event.payout();
    return switch (event) {
      case PayoutEvent.Accepted ignored ->
          record(stack.topic(Topics.PAYOUTS), payout.kind().code() + "." + ACCEPTED, payout, domainData(payout, true));
      case PayoutEvent.Completed ignored -> record(stack.topic(Topics.PAYOUTS), payout.kind().code() + "."
          + (payout.status() == PayoutStatus.SUCCESS ? SUCCEEDED : FAILED), payout, domainData(payout, false));
      case PayoutEvent.CallbackRequested callback -> {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("callbackId", callback.callbackId().toString());
        data.put("requestId", payout.requestId().toString());
        data.put("url", payout.request().callbackUrl());
        data.put("kind", payout.kind().code());
        data.put("body", callbackBody(payout));
        yield record(stack.topic(Topics.CALLBACKS), CALLBACK_REQUESTED, payout, data);
      }
    };
  }

  /**
   * The spec's callback bodies, exactly: send money {@code {requestId, phoneNumber, status, amount}}; till and paybill
   * {@code {accountNumber, businessNumber, requestId, amount, status}}.
   */
  static Map<String, Object> callbackBody(Payout payout) {
    PayoutRequest request = payout.request();
    Map<String, Object> body = new LinkedHashMap<>();
    if (payout.kind() == PayoutKind.SEND_MONEY) {
      body.put("requestId", payout.requestId().toString());
      body.put("phoneNumber", request.phoneNumber());
      body.put("status", payout.status().name());
      body.put("amount", request.amount());
    } else {
      body.put("accountNumber", request.accountNumber());
      body.put("businessNumber", request.businessNumber());
      body.put("requestId", payout.requestId().toString());
      body.put("amount", request.amount());
      body.put("status", payout.status().name());
    }
    return body;
  }

  private static Map<String, Object> domainData(Payout payout, boolean accepted) {
    PayoutRequest request = payout.request();
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("requestId", payout.requestId().toString());
    data.put("referenceId", request.referenceId());
    data.put("kind", payout.kind().code());
    data.put("amount", request.amount());
    data.put("currency", request.currency().name());
    data.put("status", payout.status().name());
    if (payout.kind() == PayoutKind.SEND_MONEY) {
      data.put("phoneNumber", request.phoneNumber());
      data.put("serviceCode", request.serviceCode());
      data.put("receiverFirstName", request.firstName());
      data.put("receiverLastName", request.lastName());
      data.put("customerName", request.customerName());
    } else {
      data.put("businessNumber", request.businessNumber());
      data.put("accountNumber", request.accountNumber());
    }
    if (!accepted && payout.result() != null) {
      Payout.Result result = payout.result();
      data.put("resultCode", result.resultCode());
      data.put("resultDescription", result.resultDescription());
      data.put("transactionReceipt", result.transactionReceipt());
      data.put("conversationId", result.conversationId());
    }
    return data;
  }

  private OutboxEvent record(String topic, String type, Payout payout, Map<String, Object> data) {
    EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), type, 1, clock.instant(),
        payout.organisationId().value(), data);
    return OutboxEvent.of(topic, payout.requestId().toString(), envelope, json);
  }
}
