package dev.lipa.payouts.ledger;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger's rules, declared once: what an account must show for a movement to apply. The store checks them inside
 * its one atomic conditional update ({@link LedgerAccounts} turns each {@link Condition} into a filter, so no other
 * write can come between the check and the change: that is the ledger's safety); when the update matched nothing,
 * {@link #explain} tells from the account read back which rule refused it, or that none did.
 */
final class LedgerRules {

  private LedgerRules() {
  }

  /** One thing the account must show. */
  sealed interface Condition {

    /** None of these movements was applied before (a movement applies once, however often it comes). */
    record NotApplied(List<String> movementIds) implements Condition {
    }

    /** Available covers the amount: a payout's reservation, a transfer out (no balance goes below zero). */
    record AvailableCovers(BigDecimal amount) implements Condition {
    }

    /** The reservation of this request is held: it is settled or released exactly once, however late a repeat. */
    record HoldExists(String requestId) implements Condition {
    }

    /** No reservation of this request is held: a request reserves once. */
    record NoHold(String requestId) implements Condition {
    }
  }

  /** The conditions of one movement, in the order the store checks them. */
  static List<Condition> conditions(Movement movement) {
    List<Condition> conditions = new ArrayList<>(List.of(new Condition.NotApplied(List.of(movement.id()))));
    switch (movement.kind().guard()) {
      case AVAILABLE_COVERS -> conditions.add(new Condition.AvailableCovers(movement.amount()));
      case HOLD_EXISTS -> conditions.add(new Condition.HoldExists(movement.requestId()));
      case NONE -> { }
    }
    if (movement.kind() == MovementKind.RESERVE) {
      conditions.add(new Condition.NoHold(movement.requestId()));
    }
    return conditions;
  }

  /**
   * Whether movements of this kind can be applied together in one update: no condition but "not applied yet", and
   * they only add to available (credits, top-ups, transfers in), so their group's change is their sum.
   */
  static boolean batchable(MovementKind kind) {
    return kind.guard() == MovementKind.Guard.NONE && kind.availableSign() > 0 && kind.reservedSign() == 0;
  }

  /**
   * Whether a movement of this kind can come back after its id left the account's recent window (a credit's event
   * redelivered late, a transfer or top-up retried): the journal is then checked before it is applied.
   */
  static boolean mayRepeatLate(MovementKind kind) {
    return kind == MovementKind.CREDIT || kind == MovementKind.TRANSFER_OUT || kind == MovementKind.TRANSFER_IN
        || kind == MovementKind.TOP_UP;
  }

  /**
   * Why the movement's update matched nothing, from the account as it is now: never by elimination (an account another
   * writer changed between the two statements would otherwise read as a refusal, and a credit would be dropped).
   */
  static MovementOutcome explain(Movement movement, AccountSnapshot account) {
    if (account.applied(List.of(movement.id()))) {
      return MovementOutcome.DUPLICATE;
    }
    boolean held = account.holds(movement.requestId());
    if (movement.kind() == MovementKind.RESERVE && held) {
      return MovementOutcome.DUPLICATE; // reserved before, its id since pushed out of the recent window
    }
    boolean refused = switch (movement.kind().guard()) {
      case AVAILABLE_COVERS -> !account.covers(movement.amount());
      case HOLD_EXISTS -> !held;
      case NONE -> false;
    };
    return refused ? MovementOutcome.REFUSED : MovementOutcome.CHANGED;
  }

  /** Why a group's update matched nothing: one of them was applied before, or the account changed in between. */
  static MovementOutcome explainGroup(List<String> movementIds, AccountSnapshot account) {
    return account.applied(movementIds) ? MovementOutcome.DUPLICATE : MovementOutcome.CHANGED;
  }
}
