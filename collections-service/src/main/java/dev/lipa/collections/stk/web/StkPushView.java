package dev.lipa.collections.stk.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.collections.stk.RailReference;
import dev.lipa.collections.stk.StkPush;
import dev.lipa.common.organisations.RecordOrganisation;
import dev.lipa.common.time.RecordTimes;
import java.math.BigDecimal;
import java.time.ZoneId;

/**
 * The spec's STK collection record, as {@code GET /stk/all} lists it and {@code GET /api/v1/tz/collections/single}
 * returns it: the spec's fields in the spec's order, then ours (the request's referenceId, its currency and the
 * country fields: channel for TZS, narration and customerName for UGX; null where they do not apply).
 */
@JsonPropertyOrder({"id", "uuid", "merchantRequestId", "checkoutRequestId", "phoneNumber", "description",
    "organisation", "amount", "status", "accountReference", "responseCode", "responseDescription", "customerMessage",
    "callbackUrl", "createdAt", "updatedAt", "referenceId", "currencyCode", "channel", "narration", "customerName"})
public record StkPushView(
    long id,
    String uuid,
    String merchantRequestId,
    String checkoutRequestId,
    String phoneNumber,
    String description,
    RecordOrganisation organisation,
    BigDecimal amount,
    String status,
    String accountReference,
    Integer responseCode,
    String responseDescription,
    String customerMessage,
    String callbackUrl,
    String createdAt,
    String updatedAt,
    String referenceId,
    String currencyCode,
    String channel,
    String narration,
    String customerName) {

  /** {@code organisation}: the caller's profile from this service's copy, in the STK records' shape. */
  static StkPushView of(StkPush push, ZoneId zone, RecordOrganisation organisation) {
    StkPush.Details d = push.details();
    RailReference rail = push.railReference();
    return new StkPushView(
        d.id(),
        d.requestId().toString(),
        rail == null ? null : rail.merchantRequestId(),
        rail == null ? null : rail.checkoutRequestId(),
        d.phoneNumber(),
        d.description(),
        organisation,
        d.amount(),
        push.status().name(),
        d.accountReference(),
        rail == null ? null : rail.responseCode(),
        rail == null ? null : rail.responseDescription(),
        rail == null ? null : rail.customerMessage(),
        d.callbackUrl(),
        RecordTimes.format(d.createdAt(), zone),
        RecordTimes.format(push.updatedAt(), zone),
        d.referenceId(),
        d.currency().name(),
        d.channel() == null ? null : d.channel().code(),
        d.narration(),
        d.customerName());
  }
}
