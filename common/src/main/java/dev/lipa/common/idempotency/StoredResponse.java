package dev.lipa.common.idempotency;

/** A completed response kept under an idempotency key: its HTTP status and its JSON body as sent. */
public record StoredResponse(int status, String body) {
}
