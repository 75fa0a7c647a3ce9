package dev.lipa.auth.apikeys;

/** A key whose secret matched: the organisation it speaks for. */
public record AuthenticatedKey(String organisationId, String apiKey) {
}
