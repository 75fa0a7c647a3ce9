package dev.lipa.examples;

import java.util.UUID;

/** Events of payments.collections.v1 as collections-service writes them (docs/asyncapi.yaml), for the tests. */
final class CollectionEvents {

  private CollectionEvents() {
  }

  static String stk(String type, String eventId, String occurredAt, String amount, String currency) {
    boolean paid = type.equals("stk.succeeded");
    String phone = switch (currency) {
      case "TZS" -> "255712345678";
      case "UGX" -> "256772123456";
      default -> "254708374149";
    };
    String outcome = type.equals("stk.accepted") ? "\"status\":\"PENDING\""
        : paid ? "\"status\":\"SUCCESS\",\"resultCode\":0,\"resultDescription\":\"The service request is processed "
            + "successfully.\",\"receipt\":\"NLJ7RT61SV\""
        : "\"status\":\"FAILED\",\"resultCode\":1032,\"resultDescription\":\"Request cancelled by user\","
            + "\"receipt\":null";
    return """
        {"eventId":"%s","type":"%s","version":1,"occurredAt":"%s","organisationId":"org-1",\
        "data":{"requestId":"%s","referenceId":null,"phoneNumber":"%s","amount":%s,"currency":"%s",%s}}"""
        .formatted(eventId, type, occurredAt, UUID.randomUUID(), phone, amount, currency, outcome);
  }

  static String stkSucceeded(String eventId, String occurredAt, String amount, String currency) {
    return stk("stk.succeeded", eventId, occurredAt, amount, currency);
  }

  static String bankReceived(String eventId, String occurredAt, String amount) {
    return """
        {"eventId":"%s","type":"bank.collection.received","version":1,"occurredAt":"%s","organisationId":"org-1",\
        "data":{"requestId":"%s","source":"sandbox","transactionref":"SBX-%s","accountnumber":"1100223344",\
        "amount":%s,"transactiondate":"2026-03-01","customerid":null,"paymentmode":null,"description":null}}"""
        .formatted(eventId, occurredAt, UUID.randomUUID(), eventId.substring(0, 8), amount);
  }

  static String id() {
    return UUID.randomUUID().toString();
  }
}
