package dev.lipa.gateway.security;

import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.security.VerifiedToken;

/**
 * Access tokens at the gateway: a repeat caller is admitted on the event loop from the verifier's cache of verified
 * tokens (one map lookup); only a token not seen yet is verified fully, which the caller must run off the event loop.
 */
public class AccessTokens {

  private final TokenVerifier verifier;

  public AccessTokens(TokenVerifier verifier) {
    this.verifier = verifier;
  }

  /** The token when it was verified as an access token recently and is still valid, else null; never blocks. */
  public VerifiedToken admitted(String token) {
    try {
      return verifier.cached(token, TokenClaims.ACCESS);
    } catch (InvalidTokenException e) {
      return null; // a cached token of another type: the full check below refuses it with its reason
    }
  }

  /**
   * Verifies the token fully (may block on a JWKS fetch); the verifier remembers it when valid.
   *
   * @throws InvalidTokenException when it is not a valid access token
   * @throws dev.lipa.common.security.KeysUnavailableException when the keys cannot be fetched
   */
  public VerifiedToken verify(String token) {
    return verifier.verifyAccess(token);
  }
}
