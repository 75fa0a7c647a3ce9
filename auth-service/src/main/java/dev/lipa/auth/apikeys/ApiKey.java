package dev.lipa.auth.apikeys;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;

/**
 * An organisation's API key: the public {@code apiKey} and the SHA-256 hash of its secret (the secret itself is
 * never stored). An organisation may hold several keys, for rotation without downtime. A key belongs to one
 * environment for life: every token it mints is for that environment.
 */
record ApiKey(String apiKey, OrganisationId organisationId, Environment environment, byte[] secretHash,
    ApiKeyStatus status, Instant createdAt, Instant revokedAt) {

  static ApiKey issue(String apiKey, OrganisationId organisationId, Environment environment, byte[] secretHash,
      Instant now) {
    return new ApiKey(apiKey, organisationId, environment, secretHash, ApiKeyStatus.ACTIVE, now, null);
  }

  boolean isActive() {
    return status == ApiKeyStatus.ACTIVE;
  }

  /** Revoking is final and happens once; revoking a revoked key changes nothing. */
  ApiKey revoke(Instant now) {
    return isActive()
        ? new ApiKey(apiKey, organisationId, environment, secretHash, ApiKeyStatus.REVOKED, createdAt, now)
        : this;
  }

  /** What the operator may see of the key: everything but its secret's hash. */
  ApiKeySummary summary() {
    return new ApiKeySummary(apiKey, organisationId, environment, status, createdAt, revokedAt);
  }
}
