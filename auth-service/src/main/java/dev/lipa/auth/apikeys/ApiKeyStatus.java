package dev.lipa.auth.apikeys;

/** An API key is usable while ACTIVE; REVOKED is final. */
public enum ApiKeyStatus {
  ACTIVE, REVOKED
}
