package dev.lipa.auth.keys;

/**
 * Where a signing key is in its life, derived from its times ({@link KeyTimeline}): NEXT is published but does not
 * sign yet; ACTIVE signs new tokens (exactly one key at a time); RETIRING no longer signs but stays published until
 * the last token it signed has expired; RETIRED has left the JWKS and its private half is erased.
 */
enum SigningKeyStatus {
  NEXT, ACTIVE, RETIRING, RETIRED
}
