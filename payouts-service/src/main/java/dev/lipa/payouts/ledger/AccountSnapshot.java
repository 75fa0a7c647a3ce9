package dev.lipa.payouts.ledger;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Set;

/**
 * An account as read right after a guarded update matched nothing: what {@link LedgerRules} needs to tell why.
 *
 * @param appliedIds the movement ids the account knows as applied: its recent window and its pending entries
 * @param heldRequestIds the requestIds of its reservations (holds)
 */
record AccountSnapshot(BigDecimal available, Set<String> appliedIds, Set<String> heldRequestIds) {

  boolean applied(Collection<String> movementIds) {
    return movementIds.stream().anyMatch(appliedIds::contains);
  }

  boolean holds(String requestId) {
    return heldRequestIds.contains(requestId);
  }

  boolean covers(BigDecimal amount) {
    return available != null && available.compareTo(amount) >= 0;
  }
}
