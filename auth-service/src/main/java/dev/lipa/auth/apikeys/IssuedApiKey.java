package dev.lipa.auth.apikeys;

import java.time.Instant;

/** A key just issued, with the only copy of its secret there will ever be. */
public record IssuedApiKey(String apiKey, String apiSecret, String organisationId, Instant createdAt) {

  @Override
  public String toString() {
    return "IssuedApiKey[apiKey=" + apiKey + ", organisationId=" + organisationId + "]";
  }
}
