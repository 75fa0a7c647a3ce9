package dev.lipa.checkout.session;

import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/**
 * A payment a session took no part in: the STK push of one of its M-Pesa attempts was paid after the session had stopped
 * waiting for it (expired, or the attempt closed without its push's result). The money was taken all the same, and the
 * organisation's balance is credited from the push's own {@code stk.succeeded}; the session records it so that the
 * merchant is told ({@code checkout.late_payment} and a callback) instead of finding an expired order and money it
 * cannot place.
 *
 * @param attempt the number of the attempt whose push was paid
 * @param stkRequestId collections-service's requestId of that push (one late payment per push)
 * @param amount what the push took, in the session's currency
 * @param receipt the M-Pesa receipt; null when the push was settled by Daraja's STK Query, which names none
 * @param recordedAt when checkout learnt of it
 */
public record LatePayment(int attempt, RequestId stkRequestId, BigDecimal amount, String receipt, Instant recordedAt) {

  public LatePayment {
    Objects.requireNonNull(stkRequestId, "stkRequestId");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(recordedAt, "recordedAt");
  }
}
