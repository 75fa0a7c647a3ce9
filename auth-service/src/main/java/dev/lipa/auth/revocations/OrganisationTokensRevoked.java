package dev.lipa.auth.revocations;

import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;

/**
 * Published (in-process) when every token of an organisation issued up to {@code revokedBefore} was revoked, so that
 * what those tokens could still buy (their refresh families) ends too.
 */
public record OrganisationTokensRevoked(OrganisationId organisationId, Instant revokedBefore) {
}
