package dev.lipa.common.idempotency;

/**
 * The right to execute a request under an idempotency key, held until {@link IdempotencyKeys#complete} or
 * {@link IdempotencyKeys#release}.
 *
 * @param id the key document's id ({@code organisation|scope|key})
 * @param recordKey a value unique to this life of the key (kept when a retry takes over a dead claimant's lease, new
 *     when the key is used again after it expired): store it in a field with a unique index in the record the
 *     request creates, so that a retry after a crash finds that record instead of creating a second one
 * @param owner a random token of this claimant; completing or releasing with a lost lease does nothing
 * @param takenOver true when this claim took over the lease of a claimant that did not finish in time
 */
public record IdempotencyClaim(String id, String recordKey, String owner, boolean takenOver) {
}
