package dev.lipa.payouts.payout;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A send-money, till or paybill payout: accepted PENDING (its amount reserved in the ledger), moved exactly once to
 * SUCCESS or FAILED by the rail's outcome. Each transition records the events it causes.
 */
public final class Payout {

  /** What never changes after acceptance. */
  public record Details(long id, RequestId requestId, OrganisationId organisationId, PayoutRequest request,
      String originatorConversationId, Instant createdAt) {

    public Details {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(organisationId, "organisationId");
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(createdAt, "createdAt");
    }
  }

  /**
   * What the rail reported: its acceptance ({@code conversationId}, {@code responseCode} 0 and its description) and
   * the result ({@code resultCode} 0 is success, with a receipt and the receiver's name).
   */
  public record Result(String conversationId, int responseCode, String responseDescription, int resultCode,
      String resultDescription, String transactionReceipt, String receiverName, UUID callbackId) {
  }

  private final Details details;
  private PayoutStatus status;
  private Instant updatedAt;
  private Result result;
  private final List<PayoutEvent> events = new ArrayList<>();

  private Payout(Details details, PayoutStatus status, Instant updatedAt, Result result) {
    this.details = details;
    this.status = status;
    this.updatedAt = updatedAt;
    this.result = result;
  }

  /** Accepts a valid request whose amount the ledger has reserved: PENDING, the rail is to be told. */
  public static Payout accept(long id, RequestId requestId, OrganisationId organisationId, PayoutRequest request,
      String originatorConversationId, Instant now) {
    Payout payout = new Payout(new Details(id, requestId, organisationId, request, originatorConversationId, now),
        PayoutStatus.PENDING, now, null);
    payout.events.add(new PayoutEvent.Accepted(payout));
    return payout;
  }

  /** A payout as stored; restoring records no events. */
  public static Payout restore(Details details, PayoutStatus status, Instant updatedAt, Result result) {
    return new Payout(details, status, updatedAt, result);
  }

  /** The money reached the receiver: PENDING to SUCCESS. */
  public void succeed(Result result, Instant now) {
    if (result.resultCode() != 0 || result.transactionReceipt() == null) {
      throw new IllegalArgumentException("a success has result code 0 and a receipt");
    }
    complete(PayoutStatus.SUCCESS, result, now);
  }

  /** The rail refused or could not pay: PENDING to FAILED. */
  public void fail(Result result, Instant now) {
    if (result.resultCode() == 0) {
      throw new IllegalArgumentException("result code 0 means success, not failure");
    }
    complete(PayoutStatus.FAILED, result, now);
  }

  private void complete(PayoutStatus outcome, Result result, Instant now) {
    if (status != PayoutStatus.PENDING) {
      throw new IllegalTransitionException(
          "payout " + details.requestId() + " is " + status + " already; " + outcome + " refused");
    }
    Objects.requireNonNull(result.callbackId(), "callbackId");
    this.status = outcome;
    this.result = result;
    this.updatedAt = now;
    events.add(new PayoutEvent.Completed(this));
    if (details.request().callbackUrl() != null) {
      events.add(new PayoutEvent.CallbackRequested(this, result.callbackId()));
    }
  }

  public Details details() {
    return details;
  }

  public PayoutRequest request() {
    return details.request();
  }

  public long id() {
    return details.id();
  }

  public RequestId requestId() {
    return details.requestId();
  }

  public OrganisationId organisationId() {
    return details.organisationId();
  }

  public PayoutKind kind() {
    return details.request().kind();
  }

  public Currency currency() {
    return details.request().currency();
  }

  public BigDecimal amount() {
    return details.request().amount();
  }

  public PayoutStatus status() {
    return status;
  }

  public Instant updatedAt() {
    return updatedAt;
  }

  /** Null while PENDING. */
  public Result result() {
    return result;
  }

  /** The events of the transitions made since this object was created or restored, oldest first. */
  public List<PayoutEvent> events() {
    return List.copyOf(events);
  }
}
