package dev.lipa.common.security;

/** Names and values shared by the token issuer (auth-service) and every verifier. */
public final class TokenClaims {

  /** Claim that says what a token is for: {@link #ACCESS} or {@link #REFRESH}. */
  public static final String TOKEN_TYPE = "token_type";
  /** Claim on refresh tokens naming the family that a reuse revokes whole. */
  public static final String FAMILY = "fam";
  /**
   * Claim on access tokens with the organisation's own request limit (requests per second, set by the platform team);
   * absent when the organisation has the gateway's default.
   */
  public static final String REQUESTS_PER_SECOND = "rps";
  /**
   * Claim on access and refresh tokens naming the API key that minted them (its public id, not a secret), so that
   * revoking the key revokes its tokens at every verifier.
   */
  public static final String API_KEY = "api_key";
  /**
   * Claim on access and refresh tokens naming the environment of the API key that minted them ({@code sandbox} or
   * {@code live}: {@link dev.lipa.common.environment.Environment}); a token without it is a sandbox token.
   */
  public static final String ENVIRONMENT = "env";
  public static final String ACCESS = "access";
  public static final String REFRESH = "refresh";
  public static final String DEFAULT_ISSUER = "lipa-auth";
  public static final String DEFAULT_AUDIENCE = "lipa-api";

  private TokenClaims() {
  }
}
