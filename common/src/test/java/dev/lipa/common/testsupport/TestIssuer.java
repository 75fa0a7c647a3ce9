package dev.lipa.common.testsupport;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.lipa.common.security.TokenClaims;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A stand-in token issuer for service tests: an ES256 key whose JWKS is served by a real local HTTP server, and
 * tokens minted with the platform's claims (or deliberately wrong ones).
 */
public final class TestIssuer {

  private static TestIssuer shared;

  private final ECKey key;
  private final HttpServer server;

  private TestIssuer() {
    try {
      key = new ECKeyGenerator(Curve.P_256).keyID("test-" + UUID.randomUUID()).generate();
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      byte[] jwks = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
      server.createContext("/.well-known/jwks.json", exchange -> {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, jwks.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(jwks);
        }
      });
      server.start();
    } catch (IOException | com.nimbusds.jose.JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The one issuer of this test JVM. */
  public static synchronized TestIssuer shared() {
    if (shared == null) {
      shared = new TestIssuer();
    }
    return shared;
  }

  public String jwksUri() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/.well-known/jwks.json";
  }

  public ECKey key() {
    return key;
  }

  /** A valid access token for the organisation. */
  public String accessToken(String organisationId) {
    return token(organisationId, claims -> { });
  }

  /** A token with the platform's claims for the organisation, changed by {@code edit} before signing. */
  public String token(String organisationId, Consumer<JWTClaimsSet.Builder> edit) {
    Instant now = Instant.now();
    JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
        .issuer(TokenClaims.DEFAULT_ISSUER)
        .audience(TokenClaims.DEFAULT_AUDIENCE)
        .subject(organisationId)
        .issueTime(Date.from(now))
        .notBeforeTime(Date.from(now))
        .expirationTime(Date.from(now.plus(Duration.ofMinutes(5))))
        .jwtID(UUID.randomUUID().toString())
        .claim(TokenClaims.TOKEN_TYPE, TokenClaims.ACCESS);
    edit.accept(claims);
    return sign(claims.build());
  }

  /** Signs claims with this issuer's key, as ES256 with its kid. */
  public String sign(JWTClaimsSet claims) {
    try {
      SignedJWT jwt = new SignedJWT(
          new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(), claims);
      jwt.sign(new ECDSASigner(key));
      return jwt.serialize();
    } catch (com.nimbusds.jose.JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
