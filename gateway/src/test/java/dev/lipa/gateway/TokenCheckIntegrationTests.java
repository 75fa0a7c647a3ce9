package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

class TokenCheckIntegrationTests extends GatewayIntegrationTest {

  static final String UNAUTHORIZED = "{\"status\":401,\"message\":\"invalid authentication token\",\"data\":null}";
  static final String STK_ALL = "/api/sandbox/v1/stk/all";

  @Nested
  class RefusedTokens {

    static Stream<Arguments> attacks() {
      return Stream.of(
          attack("no Authorization header", () -> null),
          attack("Basic credentials", () -> "Basic dXNlcjpwYXNz"),
          attack("Bearer without a token", () -> "Bearer "),
          attack("garbled token", () -> "Bearer not-a-jwt"),
          attack("token without the Bearer scheme", TokenCheckIntegrationTests::validToken),
          attack("expired", () -> bearer(ISSUER.token(org(), c -> c
              .issueTime(Date.from(Instant.now().minus(Duration.ofMinutes(20))))
              .notBeforeTime(Date.from(Instant.now().minus(Duration.ofMinutes(20))))
              .expirationTime(Date.from(Instant.now().minus(Duration.ofMinutes(5))))))),
          attack("bad signature (other key, same kid)", () -> bearer(signWith(otherKey(ISSUER.key().getKeyID()),
              claims()))),
          attack("tampered payload", () -> bearer(tamperedPayload())),
          attack("alg none", () -> bearer(new PlainJWT(new PlainHeader.Builder().type(JOSEObjectType.JWT).build(),
              claims()).serialize())),
          attack("HS256 signed with the public key", () -> bearer(hs256WithPublicKey())),
          attack("refresh token used as access token", () -> bearer(ISSUER.token(org(), c -> c
              .claim(TokenClaims.TOKEN_TYPE, TokenClaims.REFRESH).claim(TokenClaims.FAMILY, "fam-1")))),
          attack("wrong audience", () -> bearer(ISSUER.token(org(), c -> c.audience("someone-else")))),
          attack("wrong issuer", () -> bearer(ISSUER.token(org(), c -> c.issuer("evil-auth")))),
          attack("unknown kid", () -> bearer(signWith(otherKey("kid-" + UUID.randomUUID()), claims()))));
    }

    @ParameterizedTest
    @MethodSource("attacks")
    void answers401EnvelopeWithBearerChallengeAndNeverReachesTheService(Supplier<String> authorization) {
      int before = UPSTREAMS.totalCalls();
      String header = authorization.get();
      Map<String, String> headers = header == null ? Map.of() : Map.of("Authorization", header);

      TestHttp.Response response = http().get(STK_ALL, headers);

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(UNAUTHORIZED);
      assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
      assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
          type -> assertThat(type).startsWith("application/json"));
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @Test
    void refusesBadTokenOnPostsBeforeLookingAtTheBody() {
      TestHttp.Response response = http().send("POST", "/api/sandbox/v1/stk/new", "just text",
          Map.of("Authorization", "Bearer nope", "Content-Type", "text/plain"));

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(UNAUTHORIZED);
    }
  }

  @Nested
  class AdmittedTokens {

    @Test
    void proxiesWithAuthorizationAndCorrelationIdForwardedUnchanged() {
      String authorization = "Bearer " + validToken();

      TestHttp.Response response = http().get(STK_ALL + "?page=2",
          Map.of("Authorization", authorization, "X-Correlation-Id", "merchant-req.42_a"));

      assertThat(response.status()).isEqualTo(200);
      JsonNode echo = response.json();
      assertThat(echo.get("service").stringValue()).isEqualTo("collections-service");
      assertThat(echo.get("path").stringValue()).isEqualTo(STK_ALL);
      assertThat(echo.get("query").stringValue()).isEqualTo("page=2");
      assertThat(echo.at("/headers/authorization/0").stringValue()).isEqualTo(authorization);
      assertThat(echo.at("/headers/x-correlation-id/0").stringValue()).isEqualTo("merchant-req.42_a");
      assertThat(response.headers().allValues("X-Correlation-Id")).containsExactly("merchant-req.42_a");
    }

    @Test
    void admitsTheSameTokenAgainFromTheVerifiedTokenCache() {
      Map<String, String> headers = TestHttp.bearer(validToken());

      assertThat(http().get(STK_ALL, headers).status()).isEqualTo(200);
      assertThat(http().get(STK_ALL, headers).status()).isEqualTo(200);
    }

    @Test
    void generatesACorrelationIdWhenTheCallerSendsNone() {
      TestHttp.Response response = http().get(STK_ALL, authorized());

      String id = response.headers().firstValue("X-Correlation-Id").orElseThrow();
      assertThat(id).matches("[0-9a-f-]{36}");
      assertThat(response.json().at("/headers/x-correlation-id/0").stringValue()).isEqualTo(id);
    }

    @Test
    void replacesAnUnsafeCorrelationId() {
      TestHttp.Response response = http().get(STK_ALL, authorized("X-Correlation-Id", "bad id with spaces"));

      String id = response.headers().firstValue("X-Correlation-Id").orElseThrow();
      assertThat(id).isNotEqualTo("bad id with spaces").matches("[0-9a-f-]{36}");
      assertThat(response.json().at("/headers/x-correlation-id/0").stringValue()).isEqualTo(id);
    }

    @Test
    void putsACorrelationIdOnRefusalsToo() {
      TestHttp.Response response = http().get(STK_ALL, Map.of("X-Correlation-Id", "refused-1"));

      assertThat(response.headers().allValues("X-Correlation-Id")).containsExactly("refused-1");
    }
  }

  private static Arguments attack(String name, Supplier<String> authorization) {
    return Arguments.of(Named.of(name, authorization));
  }

  private static String bearer(String token) {
    return "Bearer " + token;
  }

  private static String org() {
    return UUID.randomUUID().toString();
  }

  private static JWTClaimsSet claims() {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(TokenClaims.DEFAULT_ISSUER)
        .audience(TokenClaims.DEFAULT_AUDIENCE)
        .subject(org())
        .issueTime(Date.from(now))
        .notBeforeTime(Date.from(now))
        .expirationTime(Date.from(now.plus(Duration.ofMinutes(5))))
        .jwtID(UUID.randomUUID().toString())
        .claim(TokenClaims.TOKEN_TYPE, TokenClaims.ACCESS)
        .build();
  }

  private static ECKey otherKey(String kid) {
    try {
      return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
    } catch (com.nimbusds.jose.JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String signWith(ECKey key, JWTClaimsSet claims) {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID())
          .type(JOSEObjectType.JWT).build(), claims);
      jwt.sign(new ECDSASigner(key));
      return jwt.serialize();
    } catch (com.nimbusds.jose.JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A genuine token whose payload was swapped for one naming another organisation, signature kept. */
  private static String tamperedPayload() {
    String[] genuine = validToken().split("\\.");
    String[] other = signWith(otherKey(ISSUER.key().getKeyID()), claims()).split("\\.");
    return genuine[0] + "." + other[1] + "." + genuine[2];
  }

  /** The classic key-confusion attack: HS256 with the issuer's public key as the HMAC secret. */
  private static String hs256WithPublicKey() {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(ISSUER.key().getKeyID())
          .type(JOSEObjectType.JWT).build(), claims());
      jwt.sign(new MACSigner(ISSUER.key().toECPublicKey().getEncoded()));
      return jwt.serialize();
    } catch (com.nimbusds.jose.JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
