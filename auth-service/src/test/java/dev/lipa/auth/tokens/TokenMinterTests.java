package dev.lipa.auth.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.keys.SigningKeys;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.security.VerifiedToken;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TokenMinterTests {

  private static final OrganisationId ORGANISATION = OrganisationId.of(UUID.randomUUID().toString());
  private static final String API_KEY = "lk_sbx_" + "a".repeat(32);
  private static final String FAMILY = UUID.randomUUID().toString();
  private static final String REFRESH_JTI = UUID.randomUUID().toString();

  private ECKey key;
  private TokenMinter minter;
  private final Instant now = Instant.now();

  @BeforeEach
  void setUp() throws Exception {
    key = new ECKeyGenerator(Curve.P_256).keyID("kid-" + UUID.randomUUID()).generate();
    SigningKeys.Active active = new SigningKeys.Active(key.getKeyID(), new ECDSASigner(key));
    minter = new TokenMinter(() -> active, new AuthProperties("lipa-auth", "lipa-api", Duration.ofSeconds(300),
        Duration.ofSeconds(1800), "sandbox", ZoneId.of("Africa/Nairobi"), null));
  }

  @Test
  void accessTokenCarriesThePlatformClaims() throws Exception {
    SignedJWT access = SignedJWT.parse(minter.mint(ORGANISATION, API_KEY, Environment.SANDBOX, FAMILY, REFRESH_JTI, now).accessToken());
    JWTClaimsSet claims = access.getJWTClaimsSet();

    assertThat(access.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.ES256);
    assertThat(access.getHeader().getKeyID()).isEqualTo(key.getKeyID());
    assertThat(access.getHeader().getType()).isEqualTo(JOSEObjectType.JWT);
    assertThat(claims.getIssuer()).isEqualTo("lipa-auth");
    assertThat(claims.getAudience()).isEqualTo(List.of("lipa-api"));
    assertThat(claims.getSubject()).isEqualTo(ORGANISATION.value());
    assertThat(claims.getClaim("token_type")).isEqualTo("access");
    assertThat(claims.getClaim("fam")).isNull();
    assertThat(claims.getClaim("api_key")).isEqualTo(API_KEY);
    assertThat(claims.getClaim("env")).isEqualTo("sandbox");
    assertThat(claims.getJWTID()).isNotBlank().isNotEqualTo(REFRESH_JTI);
    assertThat(claims.getIssueTime()).isEqualTo(claims.getNotBeforeTime());
    assertThat(claims.getIssueTime().toInstant()).isBetween(now.minusSeconds(1), now);
    assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
        .isEqualTo(Duration.ofSeconds(300));
    assertThat(access.verify(new ECDSAVerifier(key.toPublicJWK()))).isTrue();
  }

  @Test
  void refreshTokenCarriesItsJtiAndFamily() throws Exception {
    TokenPair pair = minter.mint(ORGANISATION, API_KEY, Environment.SANDBOX, FAMILY, REFRESH_JTI, now);
    SignedJWT refresh = SignedJWT.parse(pair.refreshToken());
    JWTClaimsSet claims = refresh.getJWTClaimsSet();

    assertThat(refresh.getHeader().getKeyID()).isEqualTo(key.getKeyID());
    assertThat(claims.getClaim("token_type")).isEqualTo("refresh");
    assertThat(claims.getClaim("fam")).isEqualTo(FAMILY);
    assertThat(claims.getClaim("api_key")).isEqualTo(API_KEY);
    assertThat(claims.getClaim("env")).isEqualTo("sandbox");
    assertThat(claims.getJWTID()).isEqualTo(REFRESH_JTI);
    assertThat(claims.getSubject()).isEqualTo(ORGANISATION.value());
    assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
        .isEqualTo(Duration.ofSeconds(1800));
    assertThat(pair.refreshExpiresAt()).isEqualTo(claims.getExpirationTime().toInstant());
    assertThat(pair.expiresIn()).isEqualTo(300);
    assertThat(pair.refreshExpiresIn()).isEqualTo(1800);
  }

  @Test
  void everyVerifierOfThePlatformAcceptsEachTokenOnlyAsItsOwnType() {
    TokenPair pair = minter.mint(ORGANISATION, API_KEY, Environment.SANDBOX, FAMILY, REFRESH_JTI, now);
    TokenVerifier verifier = new TokenVerifier(keysHolding(key), "lipa-auth", "lipa-api", Clock.systemUTC(),
        Duration.ofMinutes(5));

    VerifiedToken access = verifier.verifyAccess(pair.accessToken());
    VerifiedToken refresh = verifier.verify(pair.refreshToken(), "refresh");

    assertThat(access.organisation()).isEqualTo(ORGANISATION);
    assertThat(access.apiKey()).isEqualTo(API_KEY);
    assertThat(access.issuedAt()).isEqualTo(now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    assertThat(refresh.family()).isEqualTo(FAMILY);
    assertThat(refresh.apiKey()).isEqualTo(API_KEY);
    assertThatThrownBy(() -> verifier.verifyAccess(pair.refreshToken())).isInstanceOf(InvalidTokenException.class);
    assertThatThrownBy(() -> verifier.verify(pair.accessToken(), "refresh"))
        .isInstanceOf(InvalidTokenException.class);
  }

  @Test
  void bothTokensOfALiveKeysPairAreLiveTokensForEveryVerifier() throws Exception {
    TokenPair pair = minter.mint(ORGANISATION, API_KEY, Environment.LIVE, FAMILY, REFRESH_JTI, now);
    TokenVerifier verifier = new TokenVerifier(keysHolding(key), "lipa-auth", "lipa-api", Clock.systemUTC(),
        Duration.ofMinutes(5));

    assertThat(SignedJWT.parse(pair.accessToken()).getJWTClaimsSet().getClaim("env")).isEqualTo("live");
    assertThat(SignedJWT.parse(pair.refreshToken()).getJWTClaimsSet().getClaim("env")).isEqualTo("live");
    assertThat(verifier.verifyAccess(pair.accessToken()).environment()).isEqualTo(Environment.LIVE);
    assertThat(verifier.verify(pair.refreshToken(), "refresh").environment()).isEqualTo(Environment.LIVE);
  }

  @Test
  void tokensOfOnePairHaveDistinctIds() throws Exception {
    TokenPair first = minter.mint(ORGANISATION, API_KEY, Environment.SANDBOX, FAMILY, REFRESH_JTI, now);
    TokenPair second = minter.mint(ORGANISATION, API_KEY, Environment.SANDBOX, FAMILY, UUID.randomUUID().toString(), now);

    assertThat(SignedJWT.parse(first.accessToken()).getJWTClaimsSet().getJWTID())
        .isNotEqualTo(SignedJWT.parse(second.accessToken()).getJWTClaimsSet().getJWTID());
  }

  private static JwksKeys keysHolding(ECKey key) {
    return new JwksKeys(URI.create("http://localhost/unused"), Clock.systemUTC(), Duration.ofSeconds(10)) {
      @Override
      public ECKey key(String kid) {
        return key.getKeyID().equals(kid) ? key.toPublicJWK() : null;
      }
    };
  }
}
