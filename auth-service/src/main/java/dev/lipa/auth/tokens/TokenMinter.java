package dev.lipa.auth.tokens;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.keys.SigningKeys;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.security.TokenClaims;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Mints the platform's ES256 tokens: header {@code kid} and {@code typ: JWT}; claims {@code iss}, {@code aud},
 * {@code sub} (the organisation), {@code iat}, {@code nbf}, {@code exp}, {@code jti}, {@code token_type},
 * {@code api_key} (the key that minted the pair, so that revoking it revokes them at every verifier), {@code env} (the
 * environment of that key, on both tokens, always written), and on refresh tokens {@code fam}, the family a reuse
 * revokes whole.
 */
@Component
class TokenMinter {

  private final Supplier<SigningKeys.Active> activeKey;
  private final String issuer;
  private final String audience;
  private final Duration accessTtl;
  private final Duration refreshTtl;

  @Autowired
  TokenMinter(SigningKeys keys, AuthProperties properties) {
    this(keys::active, properties);
  }

  TokenMinter(Supplier<SigningKeys.Active> activeKey, AuthProperties properties) {
    this.activeKey = activeKey;
    this.issuer = properties.issuer();
    this.audience = properties.audience();
    this.accessTtl = properties.accessTokenTtl();
    this.refreshTtl = properties.refreshTokenTtl();
  }

  /** A new pair for an organisation with the default request limit. */
  TokenPair mint(OrganisationId organisationId, String apiKey, Environment environment, String family,
      String refreshJti, Instant now) {
    return mint(organisationId, apiKey, environment, family, refreshJti, now, null);
  }

  /**
   * A new pair for the organisation, minted by {@code apiKey} (null only for a family started before tokens named
   * their key) of {@code environment}; the refresh token carries {@code refreshJti} and {@code family}, the access
   * token the organisation's own request limit when it has one ({@code rps}), which the gateway enforces.
   */
  TokenPair mint(OrganisationId organisationId, String apiKey, Environment environment, String family,
      String refreshJti, Instant now, Integer requestsPerSecond) {
    // JWT times are whole seconds: truncate so exp - iat is exactly the advertised lifetime
    Instant issuedAt = now.truncatedTo(ChronoUnit.SECONDS);
    Instant refreshExpiresAt = issuedAt.plus(refreshTtl);
    JWTClaimsSet.Builder accessClaims = claims(organisationId, apiKey, environment, UUID.randomUUID().toString(),
        issuedAt, issuedAt.plus(accessTtl)).claim(TokenClaims.TOKEN_TYPE, TokenClaims.ACCESS);
    if (requestsPerSecond != null) {
      accessClaims.claim(TokenClaims.REQUESTS_PER_SECOND, requestsPerSecond);
    }
    String access = sign(accessClaims.build());
    String refresh = sign(claims(organisationId, apiKey, environment, refreshJti, issuedAt, refreshExpiresAt)
        .claim(TokenClaims.TOKEN_TYPE, TokenClaims.REFRESH)
        .claim(TokenClaims.FAMILY, family)
        .build());
    return new TokenPair(access, refresh, accessTtl.toSeconds(), refreshTtl.toSeconds(), refreshExpiresAt);
  }

  private JWTClaimsSet.Builder claims(OrganisationId organisationId, String apiKey, Environment environment, String jti,
      Instant issuedAt, Instant expiresAt) {
    JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
        .issuer(issuer)
        .audience(audience)
        .subject(organisationId.value())
        .issueTime(Date.from(issuedAt))
        .notBeforeTime(Date.from(issuedAt))
        .expirationTime(Date.from(expiresAt))
        .jwtID(jti)
        .claim(TokenClaims.ENVIRONMENT, environment.claim());
    return apiKey == null ? claims : claims.claim(TokenClaims.API_KEY, apiKey);
  }

  private String sign(JWTClaimsSet claims) {
    SigningKeys.Active key = activeKey.get();
    SignedJWT jwt = new SignedJWT(
        new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.kid()).type(JOSEObjectType.JWT).build(), claims);
    try {
      jwt.sign(key.signer());
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign a token with key " + key.kid(), e);
    }
    return jwt.serialize();
  }
}
