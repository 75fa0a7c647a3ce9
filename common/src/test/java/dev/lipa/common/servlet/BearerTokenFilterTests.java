package dev.lipa.common.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.testsupport.TestIssuer;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

/** The service's own check of a token's environment: a key of the other environment gets nowhere, on any path. */
class BearerTokenFilterTests {

  private static final TestIssuer ISSUER = TestIssuer.shared();
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final TokenVerifier VERIFIER = new TokenVerifier(
      new JwksKeys(URI.create(ISSUER.jwksUri()), Clock.systemUTC(), Duration.ofSeconds(10)),
      TokenClaims.DEFAULT_ISSUER, TokenClaims.DEFAULT_AUDIENCE, Clock.systemUTC(), Duration.ofMinutes(5));

  private final AtomicInteger reached = new AtomicInteger();

  private BearerTokenFilter serving(Environment environment) {
    return new BearerTokenFilter(VERIFIER, List.of("/api/**"), List.of(), JSON, environment);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/api/v1/stk/new", "/api/sandbox/v1/stk/new", "/api/v1/tz/collections/single",
      "/api/v1/callbacks", "/api/v1/balance"})
  void aLiveServiceRefusesASandboxKeysTokenOnEveryPath(String path) throws Exception {
    MockHttpServletResponse response = run(serving(Environment.LIVE), path, ISSUER.accessToken("org-1"));

    assertThat(response.getStatus()).isEqualTo(403);
    assertThat(response.getContentAsString()).isEqualTo("{\"status\":403,\"message\":\""
        + Environment.SANDBOX.wrongPathMessage() + "\",\"data\":null}");
    assertThat(reached).hasValue(0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/api/sandbox/v1/stk/new", "/api/v1/stk/new", "/api/v1/callbacks/signing-secret"})
  void aSandboxServiceRefusesALiveKeysTokenOnEveryPath(String path) throws Exception {
    MockHttpServletResponse response = run(serving(Environment.SANDBOX), path,
        ISSUER.accessToken("org-1", Environment.LIVE));

    assertThat(response.getStatus()).isEqualTo(403);
    assertThat(response.getContentAsString()).contains(Environment.LIVE.wrongPathMessage());
    assertThat(reached).hasValue(0);
  }

  @Test
  void aLiveTokenSpeltInAnotherCaseIsStillALiveToken() throws Exception {
    String token = ISSUER.token("org-1", c -> c.claim(TokenClaims.ENVIRONMENT, "LIVE"));

    assertThat(run(serving(Environment.SANDBOX), "/api/sandbox/v1/stk/new", token).getStatus()).isEqualTo(403);
    assertThat(run(serving(Environment.LIVE), "/api/v1/stk/new", token).getStatus()).isEqualTo(200);
  }

  @Test
  void letsEachServiceServeTheTokensOfItsOwnEnvironment() throws Exception {
    assertThat(run(serving(Environment.LIVE), "/api/v1/stk/new", ISSUER.accessToken("org-1", Environment.LIVE))
        .getStatus()).isEqualTo(200);
    assertThat(run(serving(Environment.SANDBOX), "/api/sandbox/v1/stk/new", ISSUER.accessToken("org-1"))
        .getStatus()).isEqualTo(200);
    assertThat(reached).hasValue(2);
  }

  @Test
  void aTokenWithAnUnknownEnvironmentIsNoTokenAtAll() throws Exception {
    String token = ISSUER.token("org-1", c -> c.claim(TokenClaims.ENVIRONMENT, "production"));

    assertThat(run(serving(Environment.LIVE), "/api/v1/stk/new", token).getStatus()).isEqualTo(401);
    assertThat(reached).hasValue(0);
  }

  private MockHttpServletResponse run(BearerTokenFilter filter, String path, String token)
      throws ServletException, IOException {
    MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
    request.addHeader("Authorization", "Bearer " + token);
    MockHttpServletResponse response = new MockHttpServletResponse();
    filter.doFilter(request, response, new MockFilterChain() {
      @Override
      public void doFilter(jakarta.servlet.ServletRequest req, jakarta.servlet.ServletResponse res) {
        reached.incrementAndGet();
      }
    });
    return response;
  }
}
