package dev.lipa.collections.stk.rail.daraja;

import dev.lipa.collections.stk.rail.StkOutcomeHandler;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.tracing.LogContext;
import dev.lipa.rails.daraja.callback.DarajaCallbacks;
import dev.lipa.rails.daraja.callback.Parsed;
import dev.lipa.rails.daraja.callback.SourceAddresses;
import dev.lipa.rails.daraja.callback.StkCallback;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;

/**
 * Daraja's STK results, posted to a push's own CallBackURL ({@code /daraja/v1/stk/<segment>/<requestId>}): read as
 * untrusted input and applied only when everything agrees. The sender's address must be on the allow-list, the
 * segment must be the shortcode's (unguessable, compared in constant time), the push must have been sent with that
 * shortcode, the CheckoutRequestID must be the one Daraja acknowledged (when the acknowledgement arrived), and a
 * payment's amount and phone number must be the push's. A repeated result changes nothing and is answered as the first
 * (the outcome's compare-and-set); anything else is logged and refused.
 */
@Service
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
public class StkCallbacks {

  private static final Logger log = LoggerFactory.getLogger(StkCallbacks.class);

  private final StkShortcodes shortcodes;
  private final StkRequestLog requests;
  private final StkOutcomeHandler outcomes;
  private final SourceAddresses sources;

  StkCallbacks(StkShortcodes shortcodes, StkRequestLog requests, StkOutcomeHandler outcomes,
      DarajaCollectionsProperties properties) {
    this.shortcodes = shortcodes;
    this.requests = requests;
    this.outcomes = outcomes;
    this.sources = SourceAddresses.of(properties.callbackSources());
    if (sources.isEmpty()) {
      log.warn("lipa.collections.daraja.callback-sources is empty: every Daraja STK callback is refused");
    }
  }

  /** What the receiver answers. */
  public enum Verdict {
    /** Applied, or a repeat of one applied already. */
    ACCEPTED,
    /** Not from an allowed address. */
    FORBIDDEN,
    /** No such callback address (unknown segment or push): answered as an unknown path. */
    UNKNOWN,
    /** Not Daraja's body, or not this push's result. */
    REFUSED
  }

  /**
   * Reads and applies one callback.
   *
   * @param source the sender's address as the platform's proxies report it
   */
  public Verdict receive(String segment, String requestIdText, String source, String body) {
    if (!sources.allows(source)) {
      log.warn("Daraja STK callback from {} refused: not an allowed source", source);
      return Verdict.FORBIDDEN;
    }
    Optional<StkShortcode> shortcode = shortcodes.byCallbackSegment(segment)
        .filter(s -> constantTimeEquals(s.callbackSegment(), segment));
    RequestId requestId = requestId(requestIdText);
    if (shortcode.isEmpty() || requestId == null) {
      log.warn("Daraja STK callback from {} to an unknown address refused", source);
      return Verdict.UNKNOWN;
    }
    Optional<StkRequestLog.Entry> entry = requests.find(requestId)
        .filter(e -> e.shortcode().equals(shortcode.get().shortcode()));
    if (entry.isEmpty()) {
      log.warn("Daraja STK callback for push {} that was not sent with shortcode {} refused", requestId,
          shortcode.get().shortcode());
      return Verdict.UNKNOWN;
    }
    try (LogContext context = LogContext.payment(entry.get().organisationId(), requestId)) {
      return apply(entry.get(), body);
    }
  }

  private Verdict apply(StkRequestLog.Entry entry, String body) {
    StkCallback callback;
    switch (DarajaCallbacks.stk(body)) {
      case Parsed.Valid<StkCallback>(StkCallback value) -> callback = value;
      case Parsed.Rejected<StkCallback>(String reason) -> {
        log.warn("Daraja STK callback for push {} refused: {}", entry.requestId(), reason);
        return Verdict.REFUSED;
      }
    }
    if (entry.checkoutRequestId() != null && !entry.checkoutRequestId().equals(callback.checkoutRequestId())) {
      log.warn("Daraja STK callback for push {} names CheckoutRequestID {}, not {}: refused", entry.requestId(),
          callback.checkoutRequestId(), entry.checkoutRequestId());
      return Verdict.REFUSED;
    }
    if (entry.checkoutRequestId() == null && requests.findByCheckoutRequestId(callback.checkoutRequestId())
        .filter(other -> !other.requestId().equals(entry.requestId())).isPresent()) {
      log.warn("Daraja STK callback for push {} names another push's CheckoutRequestID: refused", entry.requestId());
      return Verdict.REFUSED;
    }
    if (callback.successful()) {
      StkCallback.Payment payment = callback.payment();
      if (payment == null || payment.receipt() == null || payment.amount() == null
          || payment.amount().compareTo(entry.amount()) != 0 || !entry.sentTo(payment.phoneNumber())) {
        log.error("Daraja STK callback for push {} says paid but its amount or phone number is not the push's: "
            + "refused, left PENDING for reconciliation", entry.requestId());
        return Verdict.REFUSED;
      }
    }
    boolean applied = outcomes.apply(new StkRailOutcome(entry.organisationId(), entry.requestId(),
        callback.merchantRequestId(), callback.checkoutRequestId(), 0, "Accepted", null,
        callback.successful() ? 0 : DarajaStkRail.failureCode(callback.resultCode()), callback.resultDesc(),
        callback.successful() ? callback.payment().receipt() : null));
    log.info("Daraja STK result {} for push {} {}", callback.resultCode(), entry.requestId(),
        applied ? "applied" : "was applied already");
    if (!applied && callback.successful()) {
      // a push STK Query settled has no receipt: this late callback's is kept for operators (the push stays as it is)
      requests.lateReceipt(entry.requestId(), callback.payment().receipt());
    }
    return Verdict.ACCEPTED;
  }

  private static RequestId requestId(String text) {
    try {
      return text != null && text.length() == 36 ? RequestId.of(UUID.fromString(text)) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static boolean constantTimeEquals(String a, String b) {
    return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
