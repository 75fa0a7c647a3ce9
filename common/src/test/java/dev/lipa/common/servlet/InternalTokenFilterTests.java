package dev.lipa.common.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.PathSpellings;
import java.io.IOException;
import jakarta.servlet.ServletException;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

class InternalTokenFilterTests {

  private static final String TOKEN = "internal-token-for-tests-0123456789abcdef";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final InternalTokenFilter configured = new InternalTokenFilter(TOKEN, JSON);

  @Test
  void letsAPlatformServiceThrough() throws Exception {
    assertThat(run(configured, internalRequest("/internal/v1/stk-pushes", TOKEN)).getStatus()).isEqualTo(200);
  }

  @Test
  void refusesAMissingOrWrongToken() throws Exception {
    MockHttpServletResponse missing = run(configured, internalRequest("/internal/v1/stk-pushes", null));
    MockHttpServletResponse wrong = run(configured, internalRequest("/internal/v1/stk-pushes", TOKEN + "x"));

    assertThat(missing.getStatus()).isEqualTo(401);
    assertThat(missing.getContentAsString())
        .isEqualTo("{\"status\":401,\"message\":\"invalid internal token\",\"data\":null}");
    assertThat(wrong.getStatus()).isEqualTo(401);
  }

  @Test
  void answers503WhenNoInternalTokenIsConfigured() throws Exception {
    MockHttpServletResponse response = run(new InternalTokenFilter("", JSON),
        internalRequest("/internal/v1/stk-pushes", "anything"));

    assertThat(response.getStatus()).isEqualTo(503);
  }

  @Test
  void guardsEverySpellingARouterReadsAsInternal() throws Exception {
    for (String spelling : PathSpellings.of("/internal/v1/stk-pushes").values()) {
      if (dev.lipa.common.paths.PathRules.isUnder(dev.lipa.common.paths.PathRules.routed(spelling), "/internal")) {
        assertThat(run(configured, internalRequest(spelling, null)).getStatus()).as(spelling).isEqualTo(401);
      }
    }
  }

  @Test
  void leavesOtherPathsAlone() throws Exception {
    assertThat(run(configured, internalRequest("/internals", null)).getStatus()).isEqualTo(200);
    assertThat(run(configured, internalRequest("/api/internal/v1", null)).getStatus()).isEqualTo(200);
  }

  private static MockHttpServletRequest internalRequest(String path, String token) {
    MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
    if (token != null) {
      request.addHeader(InternalTokenFilter.HEADER, token);
    }
    return request;
  }

  private static MockHttpServletResponse run(InternalTokenFilter filter, MockHttpServletRequest request)
      throws ServletException, IOException {
    MockHttpServletResponse response = new MockHttpServletResponse();
    filter.doFilter(request, response, new MockFilterChain());
    return response;
  }
}
