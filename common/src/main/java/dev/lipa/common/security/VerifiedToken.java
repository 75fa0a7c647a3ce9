package dev.lipa.common.security;

import java.time.Instant;

/**
 * A token whose signature and claims were checked; {@code organisationId} is the caller's identity.
 * {@code requestsPerSecond} is the organisation's own request limit when it has one (null: the default).
 */
public record VerifiedToken(String organisationId, String tokenId, String type, String family, Instant expiresAt,
    Integer requestsPerSecond) {

  public VerifiedToken(String organisationId, String tokenId, String type, String family, Instant expiresAt) {
    this(organisationId, tokenId, type, family, expiresAt, null);
  }
}
