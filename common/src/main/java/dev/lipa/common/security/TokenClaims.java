package dev.lipa.common.security;

/** Names and values shared by the token issuer (auth-service) and every verifier. */
public final class TokenClaims {

  /** Claim that says what a token is for: {@link #ACCESS} or {@link #REFRESH}. */
  public static final String TOKEN_TYPE = "token_type";
  /** Claim on refresh tokens naming the family that a reuse revokes whole. */
  public static final String FAMILY = "fam";
  public static final String ACCESS = "access";
  public static final String REFRESH = "refresh";
  public static final String DEFAULT_ISSUER = "lipa-auth";
  public static final String DEFAULT_AUDIENCE = "lipa-api";

  private TokenClaims() {
  }
}
