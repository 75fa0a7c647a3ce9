package dev.lipa.common.security;

import java.time.Instant;

/** A token whose signature and claims were checked; {@code organisationId} is the caller's identity. */
public record VerifiedToken(String organisationId, String tokenId, String type, String family, Instant expiresAt) {
}
