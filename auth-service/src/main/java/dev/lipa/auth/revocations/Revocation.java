package dev.lipa.auth.revocations;

import java.time.Instant;

/**
 * One revocation: an API key ({@code at}: when it was revoked; every token it minted is refused) or an organisation's
 * tokens ({@code at}: every token of the organisation issued up to then is refused; {@code apiKey} null).
 */
record Revocation(Kind kind, String organisationId, String apiKey, Instant at) {

  enum Kind { API_KEY, ORGANISATION }
}
