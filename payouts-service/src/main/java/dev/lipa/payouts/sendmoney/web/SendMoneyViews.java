package dev.lipa.payouts.sendmoney.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.common.organisations.RecordOrganisation;
import dev.lipa.common.time.RecordTimes;
import dev.lipa.payouts.payout.Payout;
import java.math.BigDecimal;
import java.time.ZoneId;

/** The spec's send money records and answer, and our TZ payout record. */
final class SendMoneyViews {

  private SendMoneyViews() {
  }

  /** The spec's send money record (list item). */
  @JsonPropertyOrder({"id", "amount", "uuid", "organisation", "phoneNumber", "remarks", "occasion",
      "originatorConversationId", "conversationId", "callbackUrl", "createdAt", "updatedAt", "status", "responseCode",
      "receiverName", "transactionReceipt"})
  record SendMoneyRecord(long id, BigDecimal amount, String uuid, RecordOrganisation organisation, String phoneNumber,
      String remarks, String occasion, String originatorConversationId, String conversationId, String callbackUrl,
      String createdAt, String updatedAt, String status, Integer responseCode, String receiverName,
      String transactionReceipt) {

    static SendMoneyRecord of(Payout payout, RecordOrganisation organisation, ZoneId zone) {
      Payout.Result r = payout.result();
      return new SendMoneyRecord(payout.id(), payout.amount(), payout.requestId().toString(), organisation,
          payout.request().phoneNumber(), payout.request().remarks(), payout.request().occasion(),
          payout.details().originatorConversationId(), r == null ? "" : r.conversationId(),
          payout.request().callbackUrl(), RecordTimes.format(payout.details().createdAt(), zone),
          RecordTimes.format(payout.updatedAt(), zone), payout.status().name(), r == null ? null : r.responseCode(),
          r == null ? null : r.receiverName(), r == null ? null : r.transactionReceipt());
    }
  }

  /**
   * Our answer of {@code GET /api/v1/tz/spending/single} (the spec does not show it): the send money record plus
   * the TZS fields of the request and the provider's result.
   */
  @JsonPropertyOrder({"id", "amount", "currencyCode", "uuid", "organisation", "phoneNumber", "serviceCode",
      "firstName", "lastName", "narration", "originatorConversationId", "conversationId", "callbackUrl", "createdAt",
      "updatedAt", "status", "responseCode", "resultCode", "resultDescription", "receiverName", "transactionReceipt"})
  record TzPayoutRecord(long id, BigDecimal amount, String currencyCode, String uuid, RecordOrganisation organisation,
      String phoneNumber, String serviceCode, String firstName, String lastName, String narration,
      String originatorConversationId, String conversationId, String callbackUrl, String createdAt, String updatedAt,
      String status, Integer responseCode, Integer resultCode, String resultDescription, String receiverName,
      String transactionReceipt) {

    static TzPayoutRecord of(Payout payout, RecordOrganisation organisation, ZoneId zone) {
      Payout.Result r = payout.result();
      var q = payout.request();
      return new TzPayoutRecord(payout.id(), payout.amount(), q.currency().name(), payout.requestId().toString(),
          organisation, q.phoneNumber(), q.serviceCode(), q.firstName(), q.lastName(), q.narration(),
          payout.details().originatorConversationId(), r == null ? "" : r.conversationId(), q.callbackUrl(),
          RecordTimes.format(payout.details().createdAt(), zone), RecordTimes.format(payout.updatedAt(), zone),
          payout.status().name(), r == null ? null : r.responseCode(), r == null ? null : r.resultCode(),
          r == null ? null : r.resultDescription(), r == null ? null : r.receiverName(),
          r == null ? null : r.transactionReceipt());
    }
  }

  /** The send money 201 answer's {@code data}. */
  @JsonPropertyOrder({"requestId", "amount", "phoneNumber", "status"})
  record SendMoneyAccepted(String requestId, BigDecimal amount, String phoneNumber, String status) {
  }
}
