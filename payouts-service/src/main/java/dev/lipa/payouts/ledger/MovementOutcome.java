package dev.lipa.payouts.ledger;

/** How an attempt to apply a movement (or a group of credits) to its account ended. */
enum MovementOutcome {
  APPLIED,
  /** Applied before (its id is recent or pending; for a group, at least one of them): nothing is applied now. */
  DUPLICATE,
  /** A rule refused it: available does not cover it, or the hold to settle or release is gone. */
  REFUSED,
  /** The account does not exist yet. */
  NO_ACCOUNT,
  /**
   * The update matched nothing, yet the account read right after explains no refusal: it changed between the two
   * statements (another writer opened it, or freed what a rule needed). Nothing was applied; try again.
   */
  CHANGED
}
