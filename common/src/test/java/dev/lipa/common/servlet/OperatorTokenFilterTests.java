package dev.lipa.common.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ServletException;
import java.io.IOException;
import dev.lipa.common.paths.PathRules;
import dev.lipa.common.security.OperatorTokens;
import java.util.Map;
import dev.lipa.common.testsupport.PathSpellings;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

class OperatorTokenFilterTests {

  private static final String TOKEN = "operator-token-for-tests-0123456789abcdef";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final OperatorTokenFilter configured = new OperatorTokenFilter(TOKEN, JSON);

  @Test
  void letsTheOperatorThrough() throws Exception {
    Outcome outcome = run(configured, adminRequest(TOKEN));

    assertThat(outcome.passed()).isTrue();
  }

  @Test
  void letsEveryNamedOperatorThroughAndNoOneElse() throws Exception {
    OperatorTokenFilter named = new OperatorTokenFilter(
        OperatorTokens.of(TOKEN, Map.of("amina", TOKEN + "-amina")), JSON, () -> -1);

    assertThat(run(named, adminRequest(TOKEN)).passed()).isTrue();
    assertThat(run(named, adminRequest(TOKEN + "-amina")).passed()).isTrue();
    assertThat(run(named, adminRequest(TOKEN + "-amin")).response().getStatus()).isEqualTo(401);
  }

  @Test
  void refusesAMissingToken() throws Exception {
    Outcome outcome = run(configured, adminRequest(null));

    assertThat(outcome.passed()).isFalse();
    assertThat(outcome.response().getStatus()).isEqualTo(401);
    assertThat(outcome.response().getContentAsString())
        .isEqualTo("{\"status\":401,\"message\":\"a valid X-Operator-Token header is required\",\"data\":null}");
  }

  @Test
  void refusesAWrongTokenAndItsPrefixes() throws Exception {
    for (String wrong : new String[] {TOKEN + "x", TOKEN.substring(0, TOKEN.length() - 1), "", TOKEN.toUpperCase()}) {
      Outcome outcome = run(configured, adminRequest(wrong));
      assertThat(outcome.passed()).as(wrong).isFalse();
      assertThat(outcome.response().getStatus()).isEqualTo(401);
    }
  }

  @Test
  void neverAcceptsABearerTokenInstead() throws Exception {
    MockHttpServletRequest request = adminRequest(null);
    request.addHeader("Authorization", "Bearer " + TOKEN);

    assertThat(run(configured, request).response().getStatus()).isEqualTo(401);
  }

  @Test
  void answers503WhenNoOperatorTokenIsConfigured() throws Exception {
    Outcome outcome = run(new OperatorTokenFilter(null, JSON), adminRequest("anything"));

    assertThat(outcome.passed()).isFalse();
    assertThat(outcome.response().getStatus()).isEqualTo(503);
    assertThat(outcome.response().getContentAsString())
        .isEqualTo("{\"status\":503,\"message\":\"operator API is not configured\",\"data\":null}");
  }

  @Test
  void leavesOtherPathsAlone() throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/get-token");

    assertThat(run(new OperatorTokenFilter(null, JSON), request).passed()).isTrue();
    assertThat(run(configured, new MockHttpServletRequest("GET", "/administrators")).passed()).isTrue();
  }

  @Test
  void decidesOnTheRoutedPathWhateverTheSpelling() throws Exception {
    // without the path rules in front, each of these reaches the admin controller in Spring MVC
    for (String spelling : PathSpellings.of("/admin/v1/organisations").values()) {
      MockHttpServletRequest request = new MockHttpServletRequest("POST", spelling);
      Outcome outcome = run(configured, request);
      if (PathRules.isUnder(PathRules.routed(spelling), "/admin")) {
        assertThat(outcome.passed()).as(spelling).isFalse();
        assertThat(outcome.response().getStatus()).as(spelling).isEqualTo(401);
      }
    }
    assertThat(run(configured, new MockHttpServletRequest("POST", "/%61dmin/v1/organisations")).passed()).isFalse();
    assertThat(run(configured, new MockHttpServletRequest("POST", "/admin;x=1/v1/organisations")).passed()).isFalse();
  }

  @Nested
  class OperatorListener {

    private static final int MAIN_PORT = 8081;
    private static final int OPERATOR_PORT = 9081;
    private final OperatorTokenFilter filter = new OperatorTokenFilter(TOKEN, JSON, () -> OPERATOR_PORT);

    @Test
    void servesTheOperatorApiOnTheOperatorListenerOnly() throws Exception {
      MockHttpServletRequest onOperatorPort = adminRequest(TOKEN);
      onOperatorPort.setLocalPort(OPERATOR_PORT);
      MockHttpServletRequest onMainPort = adminRequest(TOKEN);
      onMainPort.setLocalPort(MAIN_PORT);

      assertThat(run(filter, onOperatorPort).passed()).isTrue();
      Outcome refused = run(filter, onMainPort);
      assertThat(refused.passed()).isFalse();
      assertThat(refused.response().getStatus()).isEqualTo(404);
    }

    @Test
    void stillWantsTheTokenOnTheOperatorListener() throws Exception {
      MockHttpServletRequest request = adminRequest("wrong");
      request.setLocalPort(OPERATOR_PORT);

      assertThat(run(filter, request).response().getStatus()).isEqualTo(401);
    }

    @Test
    void servesNothingElseOnTheOperatorListener() throws Exception {
      MockHttpServletRequest merchantPath = new MockHttpServletRequest("GET", "/api/sandbox/v1/stk/all");
      merchantPath.setLocalPort(OPERATOR_PORT);
      MockHttpServletRequest onMainPort = new MockHttpServletRequest("GET", "/api/sandbox/v1/stk/all");
      onMainPort.setLocalPort(MAIN_PORT);

      assertThat(run(filter, merchantPath).response().getStatus()).isEqualTo(404);
      assertThat(run(filter, onMainPort).passed()).isTrue();
    }
  }

  private static MockHttpServletRequest adminRequest(String token) {
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/admin/v1/organisations");
    if (token != null) {
      request.addHeader(OperatorTokenFilter.HEADER, token);
    }
    return request;
  }

  private static Outcome run(OperatorTokenFilter filter, MockHttpServletRequest request)
      throws ServletException, IOException {
    MockHttpServletResponse response = new MockHttpServletResponse();
    MockFilterChain chain = new MockFilterChain();
    filter.doFilter(request, response, chain);
    return new Outcome(chain.getRequest() != null, response);
  }

  private record Outcome(boolean passed, MockHttpServletResponse response) {
  }
}
