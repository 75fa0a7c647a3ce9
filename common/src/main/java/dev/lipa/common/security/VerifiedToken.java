package dev.lipa.common.security;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;

/**
 * A token whose signature and claims were checked; {@code organisationId} is the caller's identity.
 * {@code requestsPerSecond} is the organisation's own request limit when it has one (null: the default);
 * {@code apiKey} is the API key that minted the token (null on tokens minted before the claim existed);
 * {@code issuedAt} is its {@code iat} (whole seconds), which revocations of all of an organisation's tokens compare;
 * {@code environment} is the environment of the key that minted it (never null: a token without the claim is a sandbox
 * token).
 */
public record VerifiedToken(String organisationId, String tokenId, String type, String family, Instant expiresAt,
    Integer requestsPerSecond, String apiKey, Instant issuedAt, Environment environment) {

  public VerifiedToken {
    environment = environment == null ? Environment.SANDBOX : environment;
  }

  public VerifiedToken(String organisationId, String tokenId, String type, String family, Instant expiresAt) {
    this(organisationId, tokenId, type, family, expiresAt, null, null, null, Environment.SANDBOX);
  }

  /** The caller's organisation, typed. */
  public OrganisationId organisation() {
    return OrganisationId.of(organisationId);
  }
}
