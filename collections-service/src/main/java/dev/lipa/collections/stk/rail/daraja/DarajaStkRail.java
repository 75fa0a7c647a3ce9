package dev.lipa.collections.stk.rail.daraja;

import dev.lipa.collections.stk.StkPush;
import dev.lipa.collections.stk.StkPushes;
import dev.lipa.collections.stk.StkStatus;
import dev.lipa.collections.stk.rail.StkOutcomeHandler;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import dev.lipa.common.rail.RailUnavailableException;
import dev.lipa.common.tracing.LogContext;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.rails.daraja.DarajaClient;
import dev.lipa.rails.daraja.DarajaClients;
import dev.lipa.rails.daraja.DarajaConfig;
import dev.lipa.rails.daraja.DarajaFieldException;
import dev.lipa.rails.daraja.DarajaFields;
import dev.lipa.rails.daraja.Outcome;
import dev.lipa.rails.daraja.Refusal;
import dev.lipa.rails.daraja.StkPushAnswer;
import dev.lipa.rails.daraja.StkPushRequest;
import dev.lipa.rails.daraja.StkQueryResult;
import dev.lipa.rails.daraja.StkTransactionType;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Primary;
import org.springframework.stereotype.Component;

/**
 * The live STK rail: M-Pesa Express through Safaricom's Daraja, with the operator's active STK shortcode.
 *
 * <p>Each push is claimed in {@link StkRequestLog} before it is sent, so a redelivered event, the overdue sweep or a
 * second replica never prompts the customer twice. Daraja's acknowledgement keeps the push PENDING (its
 * CheckoutRequestID is logged for the callback and STK Query); a refusal (surely not acted upon) fails it; an UNKNOWN
 * answer (a timeout, a reset, a 5xx) leaves it PENDING, never resent: its result can still arrive on the push's own
 * CallBackURL, which names the record.
 */
@Component
@Primary
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class DarajaStkRail implements StkRail {

  /** Daraja's code for "An error occurred while sending a push request": the result of a push that was not sent. */
  static final int NOT_SENT = 1025;
  static final String KSH = "KSH";
  private static final Logger log = LoggerFactory.getLogger(DarajaStkRail.class);

  private final StkShortcodes shortcodes;
  private final StkRequestLog requests;
  private final StkPushes pushes;
  private final StkOutcomeHandler outcomes;
  private final DarajaClients clients;
  private final DarajaCollectionsProperties properties;
  private final Clock clock;

  DarajaStkRail(StkShortcodes shortcodes, StkRequestLog requests, StkPushes pushes, StkOutcomeHandler outcomes,
      DarajaClients clients, DarajaCollectionsProperties properties, Clock clock) {
    this.shortcodes = shortcodes;
    this.requests = requests;
    this.pushes = pushes;
    this.outcomes = outcomes;
    this.clients = clients;
    this.properties = properties;
    this.clock = clock;
    if (properties.callbackBaseUrl() == null) {
      log.warn("lipa.collections.daraja.callback-base-url is not set: live STK pushes are refused (503) until it is");
    }
  }

  @Override
  public void check(BigDecimal amount, String currency, FieldErrors errors) {
    if (!KSH.equals(currency)) {
      errors.add("currencyCode", "live STK pushes are M-Pesa Kenya only: currencyCode must be KSH");
      return;
    }
    try {
      DarajaFields.wholeAmount("amount", amount);
    } catch (DarajaFieldException e) {
      errors.add("amount", "amount must be a whole number of shillings: M-Pesa takes no cents (it is never rounded)");
    }
    if (properties.callbackBaseUrl() == null || !shortcodes.hasActive()) {
      // 503, and the Idempotency-Key is released: nothing was written, the same request may be sent again later
      throw new RailUnavailableException(
          "no live rail is configured for M-Pesa STK push: the operator has no active STK shortcode yet");
    }
  }

  @Override
  public void sendPrompt(StkPrompt prompt) {
    try (LogContext context = LogContext.payment(prompt.organisationId(), prompt.requestId())) {
      send(prompt);
    }
  }

  private void send(StkPrompt prompt) {
    Optional<StkShortcodes.Opened> active = shortcodes.active();
    if (active.isEmpty() || properties.callbackBaseUrl() == null) {
      log.error("STK push {} cannot be sent: no active STK shortcode or no callback address; failed",
          prompt.requestId());
      fail(prompt, 1, "no active M-Pesa shortcode", "The push was not sent: no M-Pesa shortcode is configured");
      return;
    }
    StkShortcodes.Opened shortcode = active.get();
    Optional<StkPush> push = pushes.find(prompt.organisationId(), prompt.requestId());
    if (push.isEmpty() || push.get().status() != StkStatus.PENDING) {
      // a replayed event of a completed push prompts nobody
      log.info("STK push {} is {}: no prompt sent", prompt.requestId(),
          push.map(p -> p.status().name()).orElse("unknown"));
      return;
    }
    StkPushRequest request;
    try {
      request = request(prompt, push.get().details(), shortcode);
    } catch (DarajaFieldException e) {
      // refused before anything is sent: never rounded, cut or changed to fit
      log.warn("STK push {} cannot be sent as asked ({}); failed", prompt.requestId(), e.getMessage());
      fail(prompt, 1, "not sent", "The push was not sent: " + e.getMessage());
      return;
    }
    if (!requests.claim(prompt.requestId(), prompt.organisationId(), shortcode.shortcode(), request.phoneNumber(),
        request.amount(), clock.instant())) {
      log.info("STK push {} was sent (or is being sent) already; not sent again", prompt.requestId());
      return;
    }
    Outcome<StkPushAnswer> outcome = client(shortcode).stkPush(request);
    switch (outcome) {
      case Outcome.Accepted<StkPushAnswer>(StkPushAnswer answer) -> {
        requests.accepted(prompt.requestId(), answer.checkoutRequestId(), answer.merchantRequestId());
        log.info("STK push {} accepted by Daraja as {}", prompt.requestId(), answer.checkoutRequestId());
      }
      case Outcome.Refused<StkPushAnswer>(Refusal refusal) -> {
        requests.mark(prompt.requestId(), StkRequestLog.State.REFUSED);
        log.warn("STK push {} refused by Daraja ({} {} {}); failed", prompt.requestId(), refusal.kind(),
            refusal.errorCode(), refusal.message());
        fail(prompt, responseCode(refusal), refusal.message() == null ? refusal.kind().name() : refusal.message(),
            "The push was not sent: " + refusal.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
      }
      case Outcome.Unknown<StkPushAnswer> unknown -> {
        requests.mark(prompt.requestId(), StkRequestLog.State.UNKNOWN);
        log.warn("STK push {} is UNKNOWN at Daraja ({}): not resent; PENDING until its callback or reconciliation",
            prompt.requestId(), unknown.cause());
      }
    }
  }

  /**
   * The overdue sweep's question (the reconciliation of a push whose callback did not come): a push never sent is sent
   * now (its claim is absent, so the customer was never prompted); an acknowledged one is asked by STK Query, whose
   * verdict settles it ({@link StkQueryVerdicts}: a payment without a receipt, a failure with Daraja's code); one whose
   * acknowledgement was lost (UNKNOWN, or SENDING when the sender died) has no CheckoutRequestID to ask about and waits
   * for its callback, until the sweep leaves it to operators.
   */
  @Override
  public void queryOutcome(StkPrompt prompt) {
    try (LogContext context = LogContext.payment(prompt.organisationId(), prompt.requestId())) {
      Optional<StkRequestLog.Entry> entry = requests.find(prompt.requestId());
      if (entry.isEmpty()) {
        send(prompt);
        return;
      }
      if (entry.get().state() != StkRequestLog.State.ACCEPTED) {
        log.warn("overdue STK push {} is {} at Daraja: no CheckoutRequestID to ask STK Query about; PENDING until "
            + "its callback comes or operators settle it", prompt.requestId(), entry.get().state());
        return;
      }
      Optional<StkShortcodes.Opened> shortcode = shortcodes.active()
          .filter(s -> s.shortcode().equals(entry.get().shortcode()));
      if (shortcode.isEmpty()) {
        log.warn("overdue STK push {} was made with shortcode {}, no longer active: not queried",
            prompt.requestId(), entry.get().shortcode());
        return;
      }
      reconcile(prompt, entry.get(), client(shortcode.get()).stkQuery(entry.get().checkoutRequestId()));
    }
  }

  private void reconcile(StkPrompt prompt, StkRequestLog.Entry sent, StkQueryResult answer) {
    switch (StkQueryVerdicts.of(prompt, sent, answer)) {
      case StkQueryVerdicts.Verdict.Settle(StkRailOutcome outcome) -> {
        boolean applied = outcomes.apply(outcome);
        if (applied) {
          requests.settledByQuery(prompt.requestId(), ((StkQueryResult.Completed) answer).resultCode(),
              clock.instant());
        }
        log.info("overdue STK push {} {} by STK Query (result {}{})", prompt.requestId(),
            applied ? "settled" : "was settled already, not", outcome.resultCode(),
            outcome.successful() ? ", paid: no receipt in the answer" : "");
      }
      case StkQueryVerdicts.Verdict.Wait(String why) ->
          log.info("overdue STK push {} is not settled yet: {}", prompt.requestId(), why);
      case StkQueryVerdicts.Verdict.Refuse(String why) ->
          log.error("STK Query's answer for push {} refused, nothing settled: {}", prompt.requestId(), why);
    }
  }

  /** The push as its record says: what the customer is asked for is what the merchant asked for. */
  private StkPushRequest request(StkPrompt prompt, StkPush.Details details, StkShortcodes.Opened shortcode) {
    if (!KSH.equals(details.currency().name())) {
      throw new DarajaFieldException("Amount", "M-Pesa Kenya takes KSH only, not " + details.currency());
    }
    URI callback = URI.create(DarajaClients.join(properties.callbackBaseUrl(),
        "/daraja/v1/stk/" + shortcode.callbackSegment() + "/" + prompt.requestId()));
    String reference = details.accountReference() != null ? details.accountReference()
        : prompt.requestId().toString().replace("-", "").substring(0, DarajaFields.STK_ACCOUNT_REFERENCE_MAX);
    return new StkPushRequest(shortcode.type(),
        shortcode.type() == StkTransactionType.CUSTOMER_BUY_GOODS_ONLINE ? shortcode.partyB() : null,
        details.amount(), details.phoneNumber(), reference, details.description(), callback);
  }

  private DarajaClient client(StkShortcodes.Opened shortcode) {
    return clients.client(shortcode.shortcode(), shortcode.version(), () -> new DarajaConfig(properties.baseUrl(),
        shortcode.consumerKey(), shortcode.consumerSecret(), shortcode.shortcode(), shortcode.passkey(), null, null,
        null, null, null, properties.connectTimeout(), properties.requestTimeout(), null));
  }

  private void fail(StkPrompt prompt, int responseCode, String responseDescription, String resultDescription) {
    outcomes.apply(new StkRailOutcome(prompt.organisationId(), prompt.requestId(), null, null, responseCode,
        responseDescription, null, NOT_SENT, resultDescription, null));
  }

  private static int responseCode(Refusal refusal) {
    try {
      return refusal.errorCode() == null ? 1 : Math.max(1, Integer.parseInt(refusal.errorCode()));
    } catch (NumberFormatException e) {
      return 1; // Daraja's dotted codes (400.002.02) are kept in the description and the log
    }
  }

  /** A failed result's code as the record's number; a code that is not a number (SFC_IC0003) is 1. */
  static int failureCode(String code) {
    try {
      int value = Integer.parseInt(code);
      return value == 0 ? 1 : value;
    } catch (NumberFormatException e) {
      return 1;
    }
  }
}
