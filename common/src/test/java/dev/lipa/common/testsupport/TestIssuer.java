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
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.lipa.common.security.RevocationFeed;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.security.TokenClaims;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.function.Consumer;

/**
 * A stand-in token issuer for service tests: an ES256 key whose JWKS is served by a real local HTTP server, and
 * tokens minted with the platform's claims (or deliberately wrong ones). The same server serves a revocation feed in
 * auth-service's shape at {@value RevocationFeed#PATH} (every verifier pointed at this JWKS follows it), which tests
 * fill with {@link #revokeApiKey} and {@link #revokeOrganisation}.
 */
public final class TestIssuer {

  private static TestIssuer shared;

  private final ECKey key;
  private final HttpServer server;
  private final Map<String, Instant> revokedKeys = new ConcurrentHashMap<>();
  private final Map<String, Instant> revokedOrganisations = new ConcurrentHashMap<>();
  private final AtomicLong revocationVersion = new AtomicLong(1);
  private final Set<String> internalTokensSeen = ConcurrentHashMap.newKeySet();

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
      server.createContext(RevocationFeed.PATH, this::revocations);
      server.start();
    } catch (IOException | com.nimbusds.jose.JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Revokes every token minted by this API key, at every verifier following this issuer's feed. */
  public void revokeApiKey(String apiKey) {
    revokedKeys.put(apiKey, Instant.now());
    revocationVersion.incrementAndGet();
  }

  /** Revokes every token of the organisation issued up to now (the same second included, as {@code iat} is). */
  public void revokeOrganisation(String organisationId) {
    revokedOrganisations.put(organisationId, Instant.now());
    revocationVersion.incrementAndGet();
  }

  /** The {@code X-Internal-Token} values verifiers sent to the feed. */
  public Set<String> internalTokensSeen() {
    return Set.copyOf(internalTokensSeen);
  }

  private void revocations(HttpExchange exchange) throws IOException {
    try (exchange) {
      String internalToken = exchange.getRequestHeaders().getFirst("X-Internal-Token");
      if (internalToken != null) {
        internalTokensSeen.add(internalToken);
      }
      String etag = "\"" + revocationVersion.get() + "\"";
      exchange.getResponseHeaders().add("ETag", etag);
      if (etag.equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
        exchange.sendResponseHeaders(304, -1);
        return;
      }
      StringBuilder body = new StringBuilder("{\"status\":200,\"message\":\"OK\",\"data\":{\"version\":\"")
          .append(revocationVersion.get()).append("\",\"apiKeys\":[");
      body.append(revokedKeys.entrySet().stream().map(e -> "{\"apiKey\":\"" + e.getKey()
          + "\",\"organisationId\":\"-\",\"revokedAt\":\"" + e.getValue() + "\"}").collect(Collectors.joining(",")));
      body.append("],\"organisations\":[");
      body.append(revokedOrganisations.entrySet().stream().map(e -> "{\"organisationId\":\"" + e.getKey()
          + "\",\"revokedBefore\":\"" + e.getValue() + "\"}").collect(Collectors.joining(",")));
      body.append("]}}");
      byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
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

  /** A valid access token for the organisation minted from a key of that environment (its {@code env} claim). */
  public String accessToken(String organisationId, Environment environment) {
    return token(organisationId, claims -> claims.claim(TokenClaims.ENVIRONMENT, environment.claim()));
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
