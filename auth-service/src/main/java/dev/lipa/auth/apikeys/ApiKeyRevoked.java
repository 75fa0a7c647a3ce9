package dev.lipa.auth.apikeys;

import dev.lipa.common.ids.OrganisationId;

/** Published (in-process) when a key is revoked, so that what it bought (refresh token families) ends too. */
public record ApiKeyRevoked(OrganisationId organisationId, String apiKey) {
}
