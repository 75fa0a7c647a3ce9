package dev.lipa.payouts.requests;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.JsonFields;
import java.util.Objects;

/**
 * How a request that moves money is recognised when it comes again: the caller, the endpoint, the fingerprint of its
 * body, its {@code referenceId} (unique per organisation and endpoint) and, with an {@code Idempotency-Key}, the
 * key's id ({@code organisation|endpoint|key}, the key store's
 * {@link dev.lipa.common.idempotency.IdempotencyClaim#id()}). The record the request creates carries them under unique
 * indexes ({@link RequestKeys}), so a repeat finds that record whatever became of the first attempt's answer.
 *
 * @param organisationId the caller, from the verified token
 * @param scope the endpoint, e.g. {@code "POST /api/sandbox/v1/de-allocations"}
 * @param fingerprint {@link dev.lipa.common.idempotency.RequestFingerprint} of the body
 * @param referenceId the body's referenceId, or null
 * @param idempotencyKey the Idempotency-Key's id, or null without the header
 */
public record RequestIdentity(OrganisationId organisationId, String scope, String fingerprint, String referenceId,
    String idempotencyKey) {

  /** The longest referenceId accepted, as for payouts. */
  public static final int REFERENCE_ID_MAX = 64;

  public RequestIdentity {
    Objects.requireNonNull(organisationId, "organisationId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(fingerprint, "fingerprint");
  }

  /** Reads the optional {@code referenceId} field (a string of at most {@value #REFERENCE_ID_MAX} characters). */
  public static String readReferenceId(JsonFields fields) {
    return fields.text("referenceId", false, REFERENCE_ID_MAX);
  }

  /** The value of the unique reference index: the referenceId within its organisation and endpoint, or null. */
  String referenceKey() {
    return referenceId == null ? null : organisationId.value() + "\n" + scope + "\n" + referenceId;
  }
}
