package dev.lipa.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.testsupport.TestIssuer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TokenVerifierTests {

  private static final TestIssuer ISSUER = TestIssuer.shared();
  private final TokenVerifier verifier = new TokenVerifier(
      new JwksKeys(URI.create(ISSUER.jwksUri()), Clock.systemUTC(), Duration.ofSeconds(10)),
      TokenClaims.DEFAULT_ISSUER, TokenClaims.DEFAULT_AUDIENCE, Clock.systemUTC(), Duration.ofMinutes(5));

  @Test
  void acceptsAValidAccessTokenAndNamesItsOrganisation() {
    VerifiedToken token = verifier.verifyAccess(ISSUER.accessToken("org-1"));
    assertThat(token.organisationId()).isEqualTo("org-1");
    assertThat(token.type()).isEqualTo(TokenClaims.ACCESS);
  }

  @Test
  void acceptsATokenAgainFromTheCacheButNotAsAnotherType() {
    String token = ISSUER.accessToken("org-2");
    assertThat(verifier.verifyAccess(token).organisationId()).isEqualTo("org-2");
    assertThat(verifier.verifyAccess(token).organisationId()).isEqualTo("org-2");
    assertThatThrownBy(() -> verifier.verify(token, TokenClaims.REFRESH)).isInstanceOf(InvalidTokenException.class);
  }

  @Test
  void namesTheKeyThatMintedTheTokenAndWhenItWasIssued() {
    Instant issued = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(5);
    VerifiedToken token = verifier.verifyAccess(ISSUER.token("org-k", c -> c
        .claim(TokenClaims.API_KEY, "lk_sbx_minter").issueTime(Date.from(issued))));

    assertThat(token.apiKey()).isEqualTo("lk_sbx_minter");
    assertThat(token.issuedAt()).isEqualTo(issued);
  }

  @Test
  void namesTheEnvironmentOfTheKeyAndTakesATokenWithoutTheClaimForASandboxToken() {
    VerifiedToken live = verifier.verifyAccess(ISSUER.token("org-e", c -> c.claim(TokenClaims.ENVIRONMENT, "live")));
    VerifiedToken sandbox = verifier.verifyAccess(ISSUER.token("org-e", c -> c
        .claim(TokenClaims.ENVIRONMENT, "sandbox")));
    VerifiedToken unnamed = verifier.verifyAccess(ISSUER.accessToken("org-e"));

    assertThat(live.environment()).isEqualTo(Environment.LIVE);
    assertThat(sandbox.environment()).isEqualTo(Environment.SANDBOX);
    assertThat(unnamed.environment()).isEqualTo(Environment.SANDBOX);
  }

  @Test
  void refusesATokenRevokedAfterItWasVerifiedAndCached() {
    AtomicReference<RevocationList> list =
        new AtomicReference<>(RevocationList.EMPTY);
    TokenVerifier following = new TokenVerifier(
        new JwksKeys(URI.create(ISSUER.jwksUri()), Clock.systemUTC(), Duration.ofSeconds(10)),
        TokenClaims.DEFAULT_ISSUER, TokenClaims.DEFAULT_AUDIENCE, Clock.systemUTC(), Duration.ofMinutes(5),
        t -> list.get().revokes(t));
    String revokedKeysToken = ISSUER.token("org-r", c -> c.claim(TokenClaims.API_KEY, "lk_leaked"));
    String otherKeysToken = ISSUER.token("org-r", c -> c.claim(TokenClaims.API_KEY, "lk_kept"));
    String otherOrganisationsToken = ISSUER.token("org-s", c -> c.claim(TokenClaims.API_KEY, "lk_other"));
    following.verifyAccess(ISSUER.accessToken("org-warm-up")); // the first key fetch starts the cache afresh
    following.verifyAccess(revokedKeysToken);
    following.verifyAccess(otherKeysToken);
    assertThat(following.cached(revokedKeysToken, TokenClaims.ACCESS)).isNotNull();

    list.set(new RevocationList("v2", Map.of("lk_leaked", Instant.now()), Map.of()));

    assertThatThrownBy(() -> following.cached(revokedKeysToken, TokenClaims.ACCESS))
        .isInstanceOf(InvalidTokenException.class).hasMessage("revoked");
    assertThatThrownBy(() -> following.verifyAccess(revokedKeysToken)).isInstanceOf(InvalidTokenException.class);
    assertThat(following.verifyAccess(otherKeysToken).organisationId()).isEqualTo("org-r");

    list.set(new RevocationList("v3", Map.of(), Map.of("org-r", Instant.now())));

    assertThatThrownBy(() -> following.verifyAccess(otherKeysToken)).isInstanceOf(InvalidTokenException.class);
    assertThat(following.verifyAccess(otherOrganisationsToken).organisationId()).isEqualTo("org-s");
  }

  static Stream<Named<Function<TestIssuer, String>>> forgedOrWrongTokens() {
    Instant now = Instant.now();
    return Stream.of(
        Named.named("expired beyond the 60 s skew", issuer -> issuer.token("o", c -> c
            .issueTime(Date.from(now.minusSeconds(900))).expirationTime(Date.from(now.minusSeconds(61))))),
        Named.named("not valid before two minutes from now", issuer -> issuer.token("o", c -> c
            .notBeforeTime(Date.from(now.plusSeconds(120))))),
        Named.named("wrong audience", issuer -> issuer.token("o", c -> c.audience("someone-else"))),
        Named.named("wrong issuer", issuer -> issuer.token("o", c -> c.issuer("evil"))),
        Named.named("refresh token used as access token", issuer -> issuer.token("o", c -> c
            .claim(TokenClaims.TOKEN_TYPE, TokenClaims.REFRESH))),
        Named.named("no subject", issuer -> issuer.token("o", c -> c.subject(null))),
        Named.named("an environment that does not exist", issuer -> issuer.token("o", c -> c
            .claim(TokenClaims.ENVIRONMENT, "production"))),
        Named.named("an environment spelled as a number", issuer -> issuer.token("o", c -> c
            .claim(TokenClaims.ENVIRONMENT, 1))),
        Named.named("tampered payload", issuer -> {
          String[] parts = issuer.accessToken("victim").split("\\.");
          String other = issuer.accessToken("attacker").split("\\.")[1];
          return parts[0] + "." + other + "." + parts[2].substring(0, parts[2].length() - 4) + "AAAA";
        }),
        Named.named("alg none", issuer -> new PlainJWT(claims("o")).serialize()),
        Named.named("HS256 keyed with the public key", issuer -> {
          try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256)
                .keyID(issuer.key().getKeyID()).build(), claims("o"));
            jwt.sign(new MACSigner(issuer.key().toPublicJWK().toJSONString()
                .getBytes(StandardCharsets.UTF_8)));
            return jwt.serialize();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }),
        Named.named("signed by another key with the same kid", issuer -> {
          try {
            var other = new ECKeyGenerator(Curve.P_256).keyID(issuer.key().getKeyID()).generate();
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256)
                .keyID(other.getKeyID()).build(), claims("o"));
            jwt.sign(new ECDSASigner(other));
            return jwt.serialize();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }),
        Named.named("garbage", issuer -> "not-a-token"),
        Named.named("empty", issuer -> ""));
  }

  @ParameterizedTest
  @MethodSource("forgedOrWrongTokens")
  void refuses(Function<TestIssuer, String> token) {
    String raw = token.apply(ISSUER);
    assertThatThrownBy(() -> verifier.verifyAccess(raw)).isInstanceOf(InvalidTokenException.class);
  }

  @Test
  void refusesAnUnknownKidAfterRefetchingTheKeySet() {
    assertThat(verifier.verifyAccess(ISSUER.sign(claims("o"))).organisationId()).isEqualTo("o");
    String otherKid;
    try {
      var other = new ECKeyGenerator(Curve.P_256).keyID("unknown-" + UUID.randomUUID()).generate();
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(other.getKeyID()).build(),
          claims("o"));
      jwt.sign(new ECDSASigner(other));
      otherKid = jwt.serialize();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    assertThatThrownBy(() -> verifier.verifyAccess(otherKid)).isInstanceOf(InvalidTokenException.class)
        .hasMessage("unknown kid");
  }

  private static JWTClaimsSet claims(String organisationId) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(TokenClaims.DEFAULT_ISSUER).audience(TokenClaims.DEFAULT_AUDIENCE).subject(organisationId)
        .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)))
        .jwtID(UUID.randomUUID().toString()).claim(TokenClaims.TOKEN_TYPE, TokenClaims.ACCESS).build();
  }
}
