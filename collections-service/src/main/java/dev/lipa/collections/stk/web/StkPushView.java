package dev.lipa.collections.stk.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.collections.stk.RailReference;
import dev.lipa.collections.stk.StkPush;
import dev.lipa.common.time.RecordTimes;
import java.math.BigDecimal;
import java.time.ZoneId;

/** The spec's STK collection record, as {@code GET /stk/all} lists it. */
@JsonPropertyOrder({"id", "uuid", "merchantRequestId", "checkoutRequestId", "phoneNumber", "description",
    "organisation", "amount", "status", "accountReference", "responseCode", "responseDescription", "customerMessage",
    "callbackUrl", "createdAt", "updatedAt"})
record StkPushView(
    long id,
    String uuid,
    String merchantRequestId,
    String checkoutRequestId,
    String phoneNumber,
    String description,
    OrganisationView organisation,
    BigDecimal amount,
    String status,
    String accountReference,
    Integer responseCode,
    String responseDescription,
    String customerMessage,
    String callbackUrl,
    String createdAt,
    String updatedAt) {

  /**
   * The spec's organisation object of STK records. Only the caller's organisation id is known here so far; the
   * profile fields stay null until this service copies profiles from {@code payments.organisations.v1}.
   */
  @JsonPropertyOrder({"id", "uuid", "name", "phoneNumber", "email", "uniqueReference", "createdAt", "updatedAt"})
  record OrganisationView(Long id, String uuid, String name, String phoneNumber, String email,
      String uniqueReference, String createdAt, String updatedAt) {

    static OrganisationView known(String organisationId) {
      return new OrganisationView(null, organisationId, null, null, null, null, null, null);
    }
  }

  static StkPushView of(StkPush push, ZoneId zone) {
    StkPush.Details d = push.details();
    RailReference rail = push.railReference();
    return new StkPushView(
        d.id(),
        d.requestId().toString(),
        rail == null ? null : rail.merchantRequestId(),
        rail == null ? null : rail.checkoutRequestId(),
        d.phoneNumber(),
        d.description(),
        OrganisationView.known(d.organisationId()),
        d.amount(),
        push.status().name(),
        d.accountReference(),
        rail == null ? null : rail.responseCode(),
        rail == null ? null : rail.responseDescription(),
        rail == null ? null : rail.customerMessage(),
        d.callbackUrl(),
        RecordTimes.format(d.createdAt(), zone),
        RecordTimes.format(push.updatedAt(), zone));
  }
}
