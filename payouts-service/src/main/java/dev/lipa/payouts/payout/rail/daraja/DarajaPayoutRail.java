package dev.lipa.payouts.payout.rail.daraja;

import dev.lipa.common.rail.RailUnavailableException;
import dev.lipa.common.tracing.LogContext;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.payouts.payout.Payout;
import dev.lipa.payouts.payout.PayoutStatus;
import dev.lipa.payouts.payout.Payouts;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutOutcomeHandler;
import dev.lipa.payouts.payout.rail.PayoutRail;
import dev.lipa.payouts.payout.rail.PayoutRailOutcome;
import dev.lipa.rails.daraja.Acknowledgement;
import dev.lipa.rails.daraja.B2bRequest;
import dev.lipa.rails.daraja.B2cRequest;
import dev.lipa.rails.daraja.DarajaClient;
import dev.lipa.rails.daraja.DarajaFieldException;
import dev.lipa.rails.daraja.DarajaFields;
import dev.lipa.rails.daraja.Outcome;
import dev.lipa.rails.daraja.Refusal;
import dev.lipa.rails.daraja.TransactionStatusQuery;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Primary;
import org.springframework.stereotype.Component;

/**
 * The live payout rail: Safaricom's Daraja, B2C (BusinessPayment) for send money, B2B for till (BusinessBuyGoods) and
 * paybill (BusinessPayBill), each from the shortcode the operator set to serve it.
 *
 * <p>Each payout is claimed in {@link PayoutRequestLog} before it is sent, with our OriginatorConversationID (the
 * payout's requestId), so nothing sends it twice. Daraja's acknowledgement keeps it PENDING until its result; a refusal
 * (surely not acted upon) fails it and releases its reservation; an UNKNOWN answer (a timeout, a reset, any 5xx) is
 * never resent and leaves it PENDING: the overdue sweep asks Transaction Status on its OriginatorConversationID.
 */
@Component
@Primary
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class DarajaPayoutRail implements PayoutRail {

  static final String KSH = "KSH";
  static final String SEND_MONEY = "sendmoney";
  static final String TILL = "till";
  static final String PAYBILL = "paybill";
  /** The result of a payout that was not sent (Daraja's "Internal Failure" family is for its own failures). */
  static final int NOT_SENT = 1;
  private static final Logger log = LoggerFactory.getLogger(DarajaPayoutRail.class);

  private final PayoutShortcodes shortcodes;
  private final PayoutRequestLog requests;
  private final PayoutOutcomeHandler outcomes;
  private final Payouts payouts;
  private final PayoutClients clients;
  private final DarajaPayoutsProperties properties;
  private final Clock clock;

  DarajaPayoutRail(PayoutShortcodes shortcodes, PayoutRequestLog requests, PayoutOutcomeHandler outcomes,
      Payouts payouts, PayoutClients clients, DarajaPayoutsProperties properties, Clock clock) {
    this.payouts = payouts;
    this.shortcodes = shortcodes;
    this.requests = requests;
    this.outcomes = outcomes;
    this.clients = clients;
    this.properties = properties;
    this.clock = clock;
    DarajaFields.remarks(properties.remarks());
    if (properties.callbackBaseUrl() == null) {
      log.warn("lipa.payouts.daraja.callback-base-url is not set: live payouts are refused (503) until it is");
    }
  }

  @Override
  public void check(PayoutOrder order, FieldErrors errors) {
    if (!KSH.equals(order.currency())) {
      errors.add("currency", "live payouts are M-Pesa Kenya only: the currency must be KSH");
      return;
    }
    if (order.businessNumber() != null && !order.businessNumber().matches("[0-9]{5,9}")) {
      errors.add("businessNumber", "businessNumber must be an M-Pesa till or paybill (5 to 9 digits)");
    }
    try {
      DarajaFields.wholeAmount("amount", order.amount());
    } catch (DarajaFieldException e) {
      errors.add("amount", "amount must be a whole number of shillings: M-Pesa takes no cents (it is never rounded)");
    }
    String product = product(order);
    if (!clients.canAsk() || !shortcodes.serves(product)) {
      // 503, and the Idempotency-Key is released: nothing was written, the same request may be sent again later
      throw new RailUnavailableException("no live rail is configured for M-Pesa "
          + (B2C.equals(product) ? "send money" : "till and paybill payouts")
          + ": the operator has no " + product.toUpperCase(Locale.ROOT) + " shortcode yet");
    }
  }

  private static final String B2C = PayoutShortcodes.B2C;

  @Override
  public void pay(PayoutOrder order) {
    try (LogContext context = LogContext.payment(order.organisationId(), order.requestId())) {
      send(order);
    }
  }

  /**
   * Pays the payout as its record says, and only while it is PENDING: whatever the caller's order says, what is paid is
   * what was reserved, and a replayed event of a completed payout pays nothing.
   */
  private void send(PayoutOrder asked) {
    Optional<Payout> payout = payouts.find(asked.organisationId(), asked.requestId());
    if (payout.isEmpty() || payout.get().status() != PayoutStatus.PENDING) {
      log.info("payout {} is {}: nothing sent", asked.requestId(),
          payout.map(p -> p.status().name()).orElse("unknown"));
      return;
    }
    PayoutOrder order = Payouts.orderOf(payout.get());
    String product = product(order);
    Optional<PayoutShortcodes.Opened> serving = shortcodes.serving(product);
    if (serving.isEmpty() || !clients.canAsk()) {
      log.error("payout {} cannot be sent: no {} shortcode or no callback address; failed", order.requestId(),
          product);
      fail(order, "The payout was not sent: no M-Pesa " + product + " shortcode is configured");
      return;
    }
    PayoutShortcodes.Opened shortcode = serving.get();
    String originatorId = order.requestId().toString();
    B2cRequest b2c = null;
    B2bRequest b2b = null;
    try {
      if (B2C.equals(product)) {
        b2c = new B2cRequest(originatorId, B2cRequest.B2cCommand.BusinessPayment, order.amount(),
            order.phoneNumber(), properties.remarks(), null);
      } else {
        b2b = new B2bRequest(originatorId, PAYBILL.equals(order.kind()) ? B2bRequest.B2bCommand.BusinessPayBill
            : B2bRequest.B2bCommand.BusinessBuyGoods, order.businessNumber(), order.amount(), order.accountNumber(),
            null, properties.remarks());
      }
    } catch (DarajaFieldException e) {
      // refused before anything is sent: never rounded, cut or changed to fit
      log.warn("payout {} cannot be sent as asked ({}); failed", order.requestId(), e.getMessage());
      fail(order, "The payout was not sent: " + e.getMessage());
      return;
    }
    String receiver = b2c != null ? b2c.phoneNumber() : b2b.partyB();
    if (!requests.claim(order.requestId(), order.organisationId(), shortcode.shortcode(), product, originatorId,
        receiver, order.amount(), clock.instant())) {
      log.info("payout {} was sent (or is being sent) already; never sent again", order.requestId());
      return;
    }
    DarajaClient client = clients.of(shortcode);
    Outcome<Acknowledgement> outcome = b2c != null ? client.b2c(b2c) : client.b2b(b2b);
    switch (outcome) {
      case Outcome.Accepted<Acknowledgement>(Acknowledgement ack) -> {
        requests.accepted(order.requestId(), ack.conversationId());
        log.info("payout {} accepted by Daraja as {}", order.requestId(), ack.conversationId());
      }
      case Outcome.Refused<Acknowledgement>(Refusal refusal) -> {
        requests.mark(order.requestId(), PayoutRequestLog.State.REFUSED);
        log.warn("payout {} refused by Daraja ({} {} {}); failed", order.requestId(), refusal.kind(),
            refusal.errorCode(), refusal.message());
        outcomes.apply(new PayoutRailOutcome(order.organisationId(), order.requestId(), null, responseCode(refusal),
            refusal.message() == null ? refusal.kind().name() : refusal.message(), NOT_SENT,
            "The payout was not sent: " + refusal.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '), null,
            null));
      }
      case Outcome.Unknown<Acknowledgement> unknown -> {
        requests.mark(order.requestId(), PayoutRequestLog.State.UNKNOWN);
        log.warn("payout {} is UNKNOWN at Daraja ({}): never resent; PENDING until Transaction Status on {}",
            order.requestId(), unknown.cause(), originatorId);
      }
    }
  }

  /**
   * The overdue sweep's question: a payout never sent is sent now (its claim is absent, so nothing was paid); any
   * other is asked about by Transaction Status on its OriginatorConversationID, which moves no money (the answer
   * arrives on the shortcode's ResultURL). Never pays a second time.
   */
  @Override
  public void queryOutcome(PayoutOrder order) {
    try (LogContext context = LogContext.payment(order.organisationId(), order.requestId())) {
      Optional<PayoutRequestLog.Entry> entry = requests.find(order.requestId());
      if (entry.isEmpty()) {
        send(order);
        return;
      }
      if (entry.get().state() == PayoutRequestLog.State.REFUSED) {
        return;
      }
      Optional<PayoutShortcodes.Opened> shortcode = shortcodes.opened(entry.get().shortcode());
      if (shortcode.isEmpty()) {
        log.warn("overdue payout {} was paid from shortcode {}, no longer configured: not queried",
            order.requestId(), entry.get().shortcode());
        return;
      }
      Outcome<Acknowledgement> asked = clients.of(shortcode.get()).transactionStatus(
          TransactionStatusQuery.byOriginatorConversationId(entry.get().originatorConversationId()));
      if (asked instanceof Outcome.Accepted<Acknowledgement>(Acknowledgement ack) && ack.conversationId() != null) {
        // its answer comes to the ResultURL under this ConversationID, which is how it is matched to the payout
        requests.statusAsked(order.requestId(), ack.conversationId());
      }
      log.info("overdue payout {} ({}): Transaction Status asked on {}: {}", order.requestId(), entry.get().state(),
          entry.get().originatorConversationId(), asked.getClass().getSimpleName());
    }
  }

  private void fail(PayoutOrder order, String description) {
    outcomes.apply(new PayoutRailOutcome(order.organisationId(), order.requestId(), null, 1, "not sent", NOT_SENT,
        description, null, null));
  }

  static String product(PayoutOrder order) {
    return SEND_MONEY.equals(order.kind()) ? PayoutShortcodes.B2C : PayoutShortcodes.B2B;
  }

  private static int responseCode(Refusal refusal) {
    try {
      return refusal.errorCode() == null ? 1 : Math.max(1, Integer.parseInt(refusal.errorCode()));
    } catch (NumberFormatException e) {
      return 1; // Daraja's dotted codes (400.002.02) are kept in the log
    }
  }
}
