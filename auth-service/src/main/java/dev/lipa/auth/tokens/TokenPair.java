package dev.lipa.auth.tokens;

import java.time.Instant;

/** An access token and its refresh token, minted together; lifetimes in seconds as the token response shows them. */
record TokenPair(String accessToken, String refreshToken, long expiresIn, long refreshExpiresIn,
    Instant refreshExpiresAt) {

  @Override
  public String toString() {
    return "TokenPair[expiresIn=" + expiresIn + ", refreshExpiresIn=" + refreshExpiresIn + "]";
  }
}
