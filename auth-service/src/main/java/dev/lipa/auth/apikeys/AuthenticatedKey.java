package dev.lipa.auth.apikeys;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;

/** A key whose secret matched: the organisation it speaks for, and the environment its tokens are for. */
public record AuthenticatedKey(OrganisationId organisationId, String apiKey, Environment environment) {
}
