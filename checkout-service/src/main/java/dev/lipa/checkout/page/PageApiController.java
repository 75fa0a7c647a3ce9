package dev.lipa.checkout.page;

import dev.lipa.checkout.mpesa.MpesaPayments;
import dev.lipa.checkout.session.CheckoutSession;
import dev.lipa.checkout.session.CheckoutSessions;
import dev.lipa.checkout.session.IllegalTransitionException;
import dev.lipa.checkout.session.PaymentMethod;
import dev.lipa.checkout.session.SessionStatus;
import dev.lipa.checkout.web.CheckoutApiException;
import dev.lipa.checkout.web.CheckoutBodies;
import dev.lipa.checkout.web.CheckoutJsonApi;
import dev.lipa.common.environment.StackEnvironment;
import java.time.Clock;
import java.time.YearMonth;
import java.time.ZoneOffset;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON API the hosted page's script calls, under {@code /checkout/{checkoutRef}/…}. The unguessable reference is
 * the only credential and reaches only its own session. No CSRF token is needed: there is no cookie or other ambient
 * credential to ride on, and every POST must be {@code application/json}, which a cross-site form cannot send and a
 * cross-site script cannot send without a CORS preflight that this service never grants.
 */
@RestController
@CheckoutJsonApi
@RequestMapping(path = "/checkout/{checkoutRef:cs_[0-9A-Za-z]{32}}", produces = MediaType.APPLICATION_JSON_VALUE)
class PageApiController {

  private final CheckoutSessions sessions;
  private final MpesaPayments mpesa;
  private final JsonMapper json;
  private final Clock clock;
  private final StackEnvironment stack;

  PageApiController(CheckoutSessions sessions, MpesaPayments mpesa, JsonMapper json, Clock clock,
      StackEnvironment stack) {
    this.stack = stack;
    this.sessions = sessions;
    this.mpesa = mpesa;
    this.json = json;
    this.clock = clock;
  }

  /** The page polls this while a payment is under way. */
  @GetMapping("/state")
  PageState state(@PathVariable String checkoutRef) {
    return PageState.of(session(checkoutRef), sessions.maxAttempts());
  }

  /** Pays with a sandbox test card: succeeds, is declined, or asks for the authentication step. */
  @PostMapping("/card")
  PageState card(@PathVariable String checkoutRef, @RequestBody(required = false) byte[] raw,
      @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) String contentType) {
    refuseCardsInLive();
    JsonNode body = CheckoutBodies.read(contentType, raw, json);
    CheckoutSession before = open(checkoutRef, PaymentMethod.CARD);
    SandboxCards.Card card = SandboxCards.check(text(body, "cardNumber"), text(body, "expiry"), text(body, "cvc"),
        YearMonth.now(clock.withZone(ZoneOffset.UTC)));
    CheckoutSession after = transition(checkoutRef, s -> {
      int n = s.startAttempt(PaymentMethod.CARD, card.brand(), card.last4(), null, sessions.now(),
          sessions.maxAttempts()).number();
      switch (card.outcome()) {
        case SUCCEEDS -> s.succeed(n, sessions.now());
        case DECLINED -> s.failAttempt(n, "Your card was declined. Try another card or method.", sessions.now(),
            sessions.maxAttempts());
        case REQUIRES_AUTHENTICATION -> s.requireAction(n, null, sessions.now());
      }
    });
    return PageState.of(after, sessions.maxAttempts());
  }

  /** The card's authentication step: {@code {"result":"approve"}} pays, {@code {"result":"cancel"}} fails it. */
  @PostMapping("/card/authentication")
  PageState authenticate(@PathVariable String checkoutRef, @RequestBody(required = false) byte[] raw,
      @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) String contentType) {
    refuseCardsInLive();
    JsonNode body = CheckoutBodies.read(contentType, raw, json);
    String result = text(body, "result");
    if (!"approve".equals(result) && !"cancel".equals(result)) {
      throw new CheckoutApiException(HttpStatus.BAD_REQUEST, "The request has invalid fields",
          java.util.Map.of("result", java.util.List.of("result must be approve or cancel")));
    }
    CheckoutSession after = transition(checkoutRef, s -> {
      var attempt = s.currentAttempt();
      if (s.status() != SessionStatus.REQUIRES_CUSTOMER_ACTION || attempt == null
          || attempt.method() != PaymentMethod.CARD) {
        throw new IllegalTransitionException("no card authentication is waiting");
      }
      if (result.equals("approve")) {
        s.resume(attempt.number(), sessions.now());
        s.succeed(attempt.number(), sessions.now());
      } else {
        s.failAttempt(attempt.number(), "Card authentication was cancelled.", sessions.now(), sessions.maxAttempts());
      }
    });
    return PageState.of(after, sessions.maxAttempts());
  }

  /** Starts an M-Pesa prompt on the customer's phone. */
  @PostMapping("/mpesa")
  PageState mpesa(@PathVariable String checkoutRef, @RequestBody(required = false) byte[] raw,
      @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) String contentType) {
    JsonNode body = CheckoutBodies.read(contentType, raw, json);
    open(checkoutRef, PaymentMethod.MPESA_STK);
    try {
      return PageState.of(mpesa.start(checkoutRef, text(body, "phoneNumber")), sessions.maxAttempts());
    } catch (MpesaPayments.RailUnavailableException e) {
      throw new CheckoutApiException(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
    } catch (IllegalTransitionException e) {
      throw closed(session(checkoutRef));
    }
  }

  /** No card processor is connected yet: a live checkout takes no card, whatever the request says. */
  private void refuseCardsInLive() {
    if (stack.isLive()) {
      throw new CheckoutApiException(HttpStatus.BAD_REQUEST,
          "Card payments are not available yet: pay with M-Pesa");
    }
  }

  private CheckoutSession transition(String checkoutRef, java.util.function.Consumer<CheckoutSession> change) {
    try {
      return sessions.change(checkoutRef, change);
    } catch (IllegalTransitionException e) {
      throw closed(session(checkoutRef));
    }
  }

  /** The session, open for a new attempt with this method; otherwise a 409 saying why. */
  private CheckoutSession open(String checkoutRef, PaymentMethod method) {
    CheckoutSession session = session(checkoutRef);
    if (!session.details().paymentMethods().contains(method)) {
      throw new CheckoutApiException(HttpStatus.BAD_REQUEST, "This payment method is not offered for this checkout");
    }
    if (!session.acceptsAttempts(sessions.now(), sessions.maxAttempts())) {
      throw closed(session);
    }
    return session;
  }

  private CheckoutApiException closed(CheckoutSession session) {
    String message = switch (session.status()) {
      case SUCCEEDED -> "This checkout is already paid.";
      case FAILED -> "This checkout has failed and accepts no more payments.";
      case EXPIRED -> "This checkout has expired.";
      case PENDING -> session.attemptsLeft(sessions.maxAttempts()) == 0
          ? "No payment attempts are left for this checkout." : "This checkout has expired.";
      default -> "A payment is already under way for this checkout.";
    };
    return new CheckoutApiException(HttpStatus.CONFLICT, message);
  }

  private CheckoutSession session(String checkoutRef) {
    return sessions.findByRef(checkoutRef).orElseThrow(CheckoutSessions.UnknownSessionException::new);
  }

  private static String text(JsonNode body, String field) {
    JsonNode node = body.get(field);
    return node != null && node.isString() ? node.stringValue() : null;
  }
}
