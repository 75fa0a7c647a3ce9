package dev.lipa.auth.keys;

/** ACTIVE signs new tokens (one key at a time); RETIRED no longer appears in the JWKS. */
enum SigningKeyStatus {
  ACTIVE, RETIRED
}
