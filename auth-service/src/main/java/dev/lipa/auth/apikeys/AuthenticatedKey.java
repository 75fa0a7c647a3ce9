package dev.lipa.auth.apikeys;

import dev.lipa.common.ids.OrganisationId;

/** A key whose secret matched: the organisation it speaks for. */
public record AuthenticatedKey(OrganisationId organisationId, String apiKey) {
}
