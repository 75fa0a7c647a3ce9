package dev.lipa.common.idempotency;

import dev.lipa.common.ids.OrganisationId;
import java.util.Objects;

/**
 * One request as idempotency sees it.
 *
 * @param organisationId the caller (from the verified token): keys of different organisations never meet
 * @param scope the endpoint, e.g. {@code "POST /api/sandbox/v1/stk/new"}: the same key on two endpoints is two keys
 * @param key the {@code Idempotency-Key} header as checked by {@link IdempotencyKeys#readKey}, or null when absent
 * @param fingerprint {@link RequestFingerprint} of the body
 */
public record IdempotentRequest(OrganisationId organisationId, String scope, String key, String fingerprint) {

  public IdempotentRequest {
    Objects.requireNonNull(organisationId, "organisationId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(fingerprint, "fingerprint");
  }

  public boolean hasKey() {
    return key != null;
  }
}
