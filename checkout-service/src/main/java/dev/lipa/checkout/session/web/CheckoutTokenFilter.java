package dev.lipa.checkout.session.web;

import dev.lipa.checkout.web.CheckoutError;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.servlet.BearerTokenFilter;
import java.util.List;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service's own check of the merchant's bearer token on the checkout-session API (defence in depth): common's
 * check, answering in the spec's checkout error body ({@code {"message":"invalid authentication token","errors":{}}})
 * where common's filter would answer with the envelope; a token of the other environment gets 403 in that body too.
 * Common's filter skips these paths
 * ({@code lipa.security.public-paths}).
 */
class CheckoutTokenFilter extends BearerTokenFilter {

  static final String SESSIONS = "/checkout-sessions";

  CheckoutTokenFilter(TokenVerifier verifier, JsonMapper json, StackEnvironment served) {
    super(verifier, List.of(served.apiBase() + SESSIONS, served.apiBase() + SESSIONS + "/**"), List.of(), json,
        served.environment());
  }

  @Override
  protected Object refusal(HttpStatus status, String message) {
    return CheckoutError.of(message);
  }
}
