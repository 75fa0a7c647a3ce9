package dev.lipa.payouts.business.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.common.organisations.RecordOrganisation;
import dev.lipa.common.time.RecordTimes;
import dev.lipa.payouts.payout.Payout;
import java.math.BigDecimal;
import java.time.ZoneId;

/** The spec's till and paybill records and answers. */
final class BusinessViews {

  private BusinessViews() {
  }

  /** The spec's till and paybill record (list item). */
  @JsonPropertyOrder({"id", "amount", "uuid", "organisation", "accountNumber", "businessNumber", "remarks",
      "occasion", "originatorConversationId", "conversationId", "callbackUrl", "createdAt", "updatedAt", "status",
      "responseCode", "receiverName", "transactionReceipt", "responseDescription"})
  record BusinessRecord(long id, BigDecimal amount, String uuid, RecordOrganisation organisation, String accountNumber,
      String businessNumber, String remarks, String occasion, String originatorConversationId, String conversationId,
      String callbackUrl, String createdAt, String updatedAt, String status, Integer responseCode,
      String receiverName, String transactionReceipt, String responseDescription) {

    static BusinessRecord of(Payout payout, RecordOrganisation organisation, ZoneId zone) {
      Payout.Result r = payout.result();
      var q = payout.request();
      return new BusinessRecord(payout.id(), payout.amount(), payout.requestId().toString(), organisation,
          q.accountNumber(), q.businessNumber(), q.remarks(), q.occasion(), payout.details().originatorConversationId(),
          r == null ? "" : r.conversationId(), q.callbackUrl(), RecordTimes.format(payout.details().createdAt(), zone),
          RecordTimes.format(payout.updatedAt(), zone), payout.status().name(), r == null ? null : r.responseCode(),
          r == null ? null : r.receiverName(), r == null ? null : r.transactionReceipt(),
          r == null ? null : r.resultDescription());
    }
  }

  /** The till and paybill 201 answer's {@code data}, and the paybill status answer's. */
  @JsonPropertyOrder({"requestId", "accountNumber", "businessNumber", "amount", "status"})
  record BusinessAccepted(String requestId, String accountNumber, String businessNumber, BigDecimal amount,
      String status) {

    static BusinessAccepted of(Payout p) {
      return new BusinessAccepted(p.requestId().toString(), p.request().accountNumber(), p.request().businessNumber(),
          p.amount(), p.status().name());
    }
  }

  /** {@code GET /paybill/status} {@code data}, in the spec's field order. */
  @JsonPropertyOrder({"accountNumber", "businessNumber", "requestId", "amount", "status"})
  record BusinessStatus(String accountNumber, String businessNumber, String requestId, BigDecimal amount,
      String status) {
  }
}
