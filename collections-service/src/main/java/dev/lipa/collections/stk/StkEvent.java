package dev.lipa.collections.stk;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.util.UUID;

/** What an STK push's transitions cause; the store writes them into the push's outbox in the same update. */
public sealed interface StkEvent {

  OrganisationId organisationId();

  RequestId requestId();

  /** The push was stored PENDING: the rail may prompt the customer. */
  record Accepted(OrganisationId organisationId, RequestId requestId, String referenceId, String phoneNumber,
      BigDecimal amount, StkCurrency currency) implements StkEvent {
  }

  /**
   * The push reached SUCCESS or FAILED. {@code receipt} is the M-Pesa receipt, on success only, and null on a success
   * confirmed by the rail's query (which names none).
   */
  record Completed(OrganisationId organisationId, RequestId requestId, String referenceId, String phoneNumber,
      BigDecimal amount, StkCurrency currency, StkStatus status, int resultCode, String resultDescription,
      String receipt) implements StkEvent {
  }

  /** The merchant must be told the outcome at {@code url}; {@code callbackId} stays the same on every retry. */
  record CallbackRequested(OrganisationId organisationId, RequestId requestId, UUID callbackId, String url,
      StkStatus status, BigDecimal amount, StkCurrency currency, String phoneNumber) implements StkEvent {
  }
}
