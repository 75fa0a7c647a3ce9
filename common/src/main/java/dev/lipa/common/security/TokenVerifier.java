package dev.lipa.common.security;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.common.environment.Environment;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Verifies the platform's ES256 tokens: algorithm, {@code kid}, signature, {@code iss}, {@code aud}, {@code exp} and
 * {@code nbf} (with bounded skew) and the token type.
 *
 * <p>Verified tokens are cached by their raw text (bounded; an entry lives until the earlier of the token's expiry and
 * {@code cacheTtl}; the cache is dropped when the key set changes). Only tokens that passed every check enter it.
 *
 * <p>Every answer, from the cache too, asks {@link Revocations} last: a token revoked after it was verified and cached
 * is refused from the moment the verifier learns of the revocation (see {@link RevocationFeed}).
 */
public class TokenVerifier {

  static final Duration MAX_SKEW = Duration.ofSeconds(60);
  private static final int MAX_CACHED = 50_000;

  private final JwksKeys keys;
  private final String issuer;
  private final String audience;
  private final Clock clock;
  private final Duration cacheTtl;
  private final Revocations revocations;
  private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();
  private volatile long cacheGeneration = -1;

  /** A verifier that knows no revocations (auth-service's own checks, tests). */
  public TokenVerifier(JwksKeys keys, String issuer, String audience, Clock clock, Duration cacheTtl) {
    this(keys, issuer, audience, clock, cacheTtl, Revocations.NONE);
  }

  public TokenVerifier(JwksKeys keys, String issuer, String audience, Clock clock, Duration cacheTtl,
      Revocations revocations) {
    this.keys = keys;
    this.revocations = revocations;
    this.issuer = issuer;
    this.audience = audience;
    this.clock = clock;
    this.cacheTtl = cacheTtl;
  }

  /** Verifies an access token (what every merchant call carries). */
  public VerifiedToken verifyAccess(String token) {
    return verify(token, TokenClaims.ACCESS);
  }

  /** Verifies a token of the given type. */
  public VerifiedToken verify(String token, String expectedType) {
    if (token == null || token.isBlank()) {
      throw new InvalidTokenException("no token");
    }
    Instant now = clock.instant();
    VerifiedToken known = cached(token, expectedType, now);
    if (known != null) {
      return known;
    }
    VerifiedToken verified = verifyUncached(token, expectedType, now);
    refuseIfRevoked(verified);
    if (cache.size() >= MAX_CACHED) {
      cache.clear();
    }
    Instant until = verified.expiresAt().plus(MAX_SKEW);
    Instant ttl = now.plus(cacheTtl);
    cache.put(token, new Cached(verified, until.isBefore(ttl) ? until : ttl, keys.generation()));
    return verified;
  }

  /**
   * The token when it was verified recently as this type and is still valid, or null; never blocks (no signature
   * check, no key fetch), so a reactive caller can admit repeat callers on its event loop.
   *
   * @throws InvalidTokenException when it was cached as another type, or has been revoked since
   */
  public VerifiedToken cached(String token, String expectedType) {
    return token == null ? null : cached(token, expectedType, clock.instant());
  }

  private VerifiedToken cached(String token, String expectedType, Instant now) {
    long generation = keys.generation();
    if (generation != cacheGeneration) {
      cache.clear();
      cacheGeneration = generation;
    }
    Cached cached = cache.get(token);
    if (cached == null || !now.isBefore(cached.until) || cached.generation != generation) {
      return null;
    }
    if (!cached.token.type().equals(expectedType)) {
      throw new InvalidTokenException("token type " + cached.token.type());
    }
    refuseIfRevoked(cached.token);
    return cached.token;
  }

  private void refuseIfRevoked(VerifiedToken token) {
    if (revocations.isRevoked(token)) {
      throw new InvalidTokenException("revoked");
    }
  }

  private VerifiedToken verifyUncached(String token, String expectedType, Instant now) {
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException | RuntimeException e) {
      throw new InvalidTokenException("not a signed JWT");
    }
    JWSHeader header = jwt.getHeader();
    if (!JWSAlgorithm.ES256.equals(header.getAlgorithm())) {
      throw new InvalidTokenException("algorithm " + header.getAlgorithm());
    }
    if (header.getKeyID() == null) {
      throw new InvalidTokenException("no kid");
    }
    ECKey key = keys.key(header.getKeyID());
    if (key == null) {
      throw new InvalidTokenException("unknown kid");
    }
    try {
      if (!jwt.verify(new ECDSAVerifier(key))) {
        throw new InvalidTokenException("bad signature");
      }
    } catch (JOSEException e) {
      throw new InvalidTokenException("signature check failed");
    }
    JWTClaimsSet claims;
    try {
      claims = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      throw new InvalidTokenException("bad claims");
    }
    if (!issuer.equals(claims.getIssuer())) {
      throw new InvalidTokenException("issuer");
    }
    if (claims.getAudience() == null || !claims.getAudience().contains(audience)) {
      throw new InvalidTokenException("audience");
    }
    Date exp = claims.getExpirationTime();
    if (exp == null || !now.isBefore(exp.toInstant().plus(MAX_SKEW))) {
      throw new InvalidTokenException("expired");
    }
    Date nbf = claims.getNotBeforeTime();
    if (nbf != null && now.plus(MAX_SKEW).isBefore(nbf.toInstant())) {
      throw new InvalidTokenException("not yet valid");
    }
    Date iat = claims.getIssueTime();
    if (iat == null || now.plus(MAX_SKEW).isBefore(iat.toInstant())) {
      throw new InvalidTokenException("issued in the future");
    }
    String subject = claims.getSubject();
    if (subject == null || subject.isBlank() || claims.getJWTID() == null) {
      throw new InvalidTokenException("no subject or id");
    }
    Object type = claims.getClaim(TokenClaims.TOKEN_TYPE);
    if (!expectedType.equals(type)) {
      throw new InvalidTokenException("token type " + type);
    }
    Object family = claims.getClaim(TokenClaims.FAMILY);
    Object rps = claims.getClaim(TokenClaims.REQUESTS_PER_SECOND);
    Integer requestsPerSecond = rps instanceof Number n && n.longValue() > 0 && n.longValue() <= Integer.MAX_VALUE
        ? n.intValue() : null;
    Object apiKey = claims.getClaim(TokenClaims.API_KEY);
    Environment environment;
    try {
      environment = Environment.fromClaim(claims.getClaim(TokenClaims.ENVIRONMENT));
    } catch (IllegalArgumentException e) {
      throw new InvalidTokenException("unknown environment");
    }
    return new VerifiedToken(subject, claims.getJWTID(), expectedType, family == null ? null : family.toString(),
        exp.toInstant(), requestsPerSecond, apiKey instanceof String named && !named.isBlank() ? named : null,
        iat.toInstant(), environment);
  }

  private record Cached(VerifiedToken token, Instant until, long generation) {
  }
}
