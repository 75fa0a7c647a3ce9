package dev.lipa.common.once;

import dev.lipa.common.idempotency.IdempotencyClaim;
import java.util.Objects;

/**
 * What identifies the request that creates a record, so that a repeat of it is recognised from the record alone: the
 * fingerprint of its body and, when it carried an {@code Idempotency-Key}, the claim's record key. The store writes
 * both into the new record (the record key under a unique index).
 *
 * @param fingerprint {@link dev.lipa.common.idempotency.RequestFingerprint} of the body
 * @param idempotencyKey {@link IdempotencyClaim#recordKey()}, or null without the header
 */
public record Origin(String fingerprint, String idempotencyKey) {

  public Origin {
    Objects.requireNonNull(fingerprint, "fingerprint");
  }

  /** The origin of a request run under {@code claim} (null when it carried no Idempotency-Key). */
  public static Origin of(String fingerprint, IdempotencyClaim claim) {
    return new Origin(fingerprint, claim == null ? null : claim.recordKey());
  }
}
