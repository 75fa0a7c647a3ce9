package dev.lipa.collections.stk;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * An STK push collection: created PENDING, moved exactly once to SUCCESS or FAILED by the rail's outcome. Each
 * transition records the events it causes; the store persists state and events in one atomic write.
 */
public final class StkPush {

  /**
   * What never changes after acceptance. {@code channel} is set for TZS only, {@code narration} and
   * {@code customerName} for UGX only.
   */
  public record Details(long id, RequestId requestId, OrganisationId organisationId, String referenceId,
      String phoneNumber, String description, String accountReference, BigDecimal amount, StkCurrency currency,
      String callbackUrl, Instant createdAt, TzChannel channel, String narration, String customerName) {

    public Details {
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(organisationId, "organisationId");
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(createdAt, "createdAt");
    }
  }

  /** What the rail reported as the customer's answer. */
  public record Result(int resultCode, String resultDescription, String receipt, UUID callbackId) {
  }

  private final Details details;
  private StkStatus status;
  private Instant updatedAt;
  private RailReference railReference;
  private Result result;
  private final List<StkEvent> events = new ArrayList<>();

  private StkPush(Details details, StkStatus status, Instant updatedAt, RailReference railReference, Result result) {
    this.details = details;
    this.status = status;
    this.updatedAt = updatedAt;
    this.railReference = railReference;
    this.result = result;
  }

  /** Accepts a valid request: the push is PENDING and the rail is to be told ({@link StkEvent.Accepted}). */
  public static StkPush accept(long id, RequestId requestId, OrganisationId organisationId, StkPushRequest request,
      Instant now) {
    Details details = new Details(id, requestId, organisationId, request.referenceId(), request.phoneNumber().value(),
        request.description(), request.accountReference(), request.amount(), request.currency(), request.callbackUrl(),
        now, request.channel(), request.narration(), request.customerName());
    StkPush push = new StkPush(details, StkStatus.PENDING, now, null, null);
    push.events.add(new StkEvent.Accepted(organisationId, requestId, details.referenceId(), details.phoneNumber(),
        details.amount(), details.currency()));
    return push;
  }

  /** A push as stored; restoring records no events. */
  public static StkPush restore(Details details, StkStatus status, Instant updatedAt, RailReference railReference,
      Result result) {
    return new StkPush(details, status, updatedAt, railReference, result);
  }

  /** The customer paid: PENDING to SUCCESS, with the rail's receipt. */
  public void succeed(RailReference reference, String resultDescription, String receipt, UUID callbackId,
      Instant now) {
    Objects.requireNonNull(receipt, "a successful push has a receipt");
    complete(StkStatus.SUCCESS, reference, new Result(0, resultDescription, receipt, callbackId), now);
  }

  /**
   * The rail confirmed the payment without naming its receipt (Daraja's STK Query names none, and its callback, which
   * does, was lost): PENDING to SUCCESS with no receipt. Only a rail's own word that the push was paid comes here,
   * never the absence of an answer.
   */
  public void confirmPaidWithoutReceipt(RailReference reference, String resultDescription, UUID callbackId,
      Instant now) {
    complete(StkStatus.SUCCESS, reference, new Result(0, resultDescription, null, callbackId), now);
  }

  /** The customer did not pay (declined, unreachable, no funds…): PENDING to FAILED. */
  public void fail(RailReference reference, int resultCode, String resultDescription, UUID callbackId, Instant now) {
    if (resultCode == 0) {
      throw new IllegalArgumentException("result code 0 means success, not failure");
    }
    complete(StkStatus.FAILED, reference, new Result(resultCode, resultDescription, null, callbackId), now);
  }

  private void complete(StkStatus outcome, RailReference reference, Result result, Instant now) {
    if (status != StkStatus.PENDING) {
      throw new IllegalTransitionException(
          "STK push " + details.requestId() + " is " + status + " already; " + outcome + " refused");
    }
    Objects.requireNonNull(reference, "reference");
    Objects.requireNonNull(result.callbackId(), "callbackId");
    this.status = outcome;
    this.railReference = reference;
    this.result = result;
    this.updatedAt = now;
    events.add(new StkEvent.Completed(details.organisationId(), details.requestId(), details.referenceId(),
        details.phoneNumber(), details.amount(), details.currency(), outcome, result.resultCode(),
        result.resultDescription(), result.receipt()));
    if (details.callbackUrl() != null) {
      events.add(new StkEvent.CallbackRequested(details.organisationId(), details.requestId(), result.callbackId(),
          details.callbackUrl(), outcome, details.amount(), details.currency(), details.phoneNumber()));
    }
  }

  public Details details() {
    return details;
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

  public StkStatus status() {
    return status;
  }

  public Instant updatedAt() {
    return updatedAt;
  }

  /** Null until the rail has answered. */
  public RailReference railReference() {
    return railReference;
  }

  /** Null while PENDING. */
  public Result result() {
    return result;
  }

  /** The events of the transitions made since this object was created or restored, oldest first. */
  public List<StkEvent> events() {
    return List.copyOf(events);
  }
}
