package dev.lipa.common.once;

/** How the insert of a new record ended: written, or which unique key refused it (then nothing was written). */
public enum Insert {
  WRITTEN,
  /** Another record holds the new record's minted id (another replica minted the same): mint again. */
  ID_TAKEN,
  /** An earlier request holds the referenceId. */
  REFERENCE_TAKEN,
  /** An earlier request holds the Idempotency-Key's record key. */
  KEY_TAKEN
}
