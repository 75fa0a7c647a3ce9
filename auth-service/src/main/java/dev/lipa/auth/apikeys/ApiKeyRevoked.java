package dev.lipa.auth.apikeys;

/** Published (in-process) when a key is revoked, so that what it bought (refresh token families) ends too. */
public record ApiKeyRevoked(String organisationId, String apiKey) {
}
