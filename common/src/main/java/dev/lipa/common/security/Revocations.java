package dev.lipa.common.security;

/** What a verifier asks before it accepts a token whose signature and claims are good: was it revoked since? */
@FunctionalInterface
public interface Revocations {

  /** Knows no revocations: for verifiers that follow no feed (auth-service's own refresh check, unit tests). */
  Revocations NONE = token -> false;

  boolean isRevoked(VerifiedToken token);
}
