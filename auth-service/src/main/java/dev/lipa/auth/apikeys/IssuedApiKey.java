package dev.lipa.auth.apikeys;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;

/** A key just issued, with the only copy of its secret there will ever be. */
public record IssuedApiKey(String apiKey, String apiSecret, OrganisationId organisationId, Environment environment,
    Instant createdAt) {

  @Override
  public String toString() {
    return "IssuedApiKey[apiKey=" + apiKey + ", organisationId=" + organisationId + ", environment="
        + environment.claim() + "]";
  }
}
