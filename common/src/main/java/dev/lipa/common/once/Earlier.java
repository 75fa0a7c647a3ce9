package dev.lipa.common.once;

/**
 * A record an earlier request created, with the fingerprint of that request's body (null for records older than
 * fingerprints, which then match no repeat).
 */
public record Earlier<T>(T record, String fingerprint) {
}
