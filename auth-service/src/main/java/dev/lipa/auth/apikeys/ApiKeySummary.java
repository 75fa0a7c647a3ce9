package dev.lipa.auth.apikeys;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;

/** An API key as the operator sees it, without anything of its secret; {@code revokedAt} is null while active. */
public record ApiKeySummary(String apiKey, OrganisationId organisationId, Environment environment,
    ApiKeyStatus status, Instant createdAt, Instant revokedAt) {
}
