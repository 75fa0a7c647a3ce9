package dev.lipa.payouts.ledger;

import dev.lipa.common.events.Topics;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Credits organisations with the card payments of their hosted checkout sessions, from checkout-service's
 * {@code checkout.succeeded} on {@value Topics#CHECKOUT} (group {@value #GROUP}) when the paying attempt's
 * {@code paymentMethod} is {@code CARD}: {@code data.amount} of {@code data.currency} (KES or KSH credit the KSH
 * account, USD the USD account). An M-Pesa checkout payment is not credited here: it is an STK push of the same
 * organisation, credited from its {@code stk.succeeded} like any other ({@link CollectionCredits}).
 *
 * <p>A session is paid once, so the movement is keyed by the session id ({@code checkout.succeeded:<id>:credit}): a
 * redelivered or republished event changes nothing. Read, batched and retried like {@link CollectionCredits} (same
 * container factory): records are read first, {@link Ledger#creditAll} applies them, and store failures propagate so
 * the container retries the batch uncommitted.
 */
@Component
class CheckoutCredits {

  static final String GROUP = "payouts-checkout-credits";
  static final String SUCCEEDED = "checkout.succeeded";
  static final String CARD = "CARD";
  private static final Logger log = LoggerFactory.getLogger(CheckoutCredits.class);

  private final Ledger ledger;
  private final JsonMapper json;

  CheckoutCredits(Ledger ledger, JsonMapper json) {
    this.ledger = ledger;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP, topics = Topics.CHECKOUT,
      containerFactory = CollectionCredits.CONTAINER_FACTORY, batch = "true")
  void onCheckoutEvents(List<ConsumerRecord<String, String>> records) {
    List<Movement> credits = new ArrayList<>();
    for (ConsumerRecord<String, String> record : records) {
      Optional<Movement> credit;
      try {
        credit = credit(json.readTree(record.value()));
      } catch (RuntimeException e) {
        credit = unreadable(record, e);
      }
      credit.ifPresent(credits::add);
    }
    if (credits.isEmpty()) {
      return;
    }
    // store failures propagate: the container retries the batch uncommitted, and the movement ids keep it harmless
    List<Movement> applied = ledger.creditAll(credits);
    log.debug("credited {} of {} card payments ({} records)", applied.size(), credits.size(), records.size());
  }

  /**
   * What to do with a record that cannot be read or credits nothing sensible (no organisation, no positive amount, an
   * unknown currency): log it and go on, so that it holds up neither its partition nor the rest of its batch.
   */
  private static Optional<Movement> unreadable(ConsumerRecord<String, String> record, RuntimeException e) {
    log.warn("checkout event on {} (partition {}, offset {}) not credited: {}", Topics.CHECKOUT, record.partition(),
        record.offset(), e.toString());
    return Optional.empty();
  }

  /**
   * The credit an event asks for: a card payment's; empty for every other event (other types, M-Pesa payments).
   *
   * @throws IllegalArgumentException for a card payment that cannot be credited as it is
   */
  static Optional<Movement> credit(JsonNode event) {
    if (!SUCCEEDED.equals(event.path("type").asString(""))) {
      return Optional.empty();
    }
    JsonNode data = event.path("data");
    if (!CARD.equals(data.path("attempt").path("paymentMethod").asString(""))) {
      return Optional.empty();
    }
    String organisationId = event.path("organisationId").asString("");
    String sessionId = data.path("checkoutSessionId").asString("");
    JsonNode amountNode = data.path("amount");
    if (organisationId.isBlank() || sessionId.isBlank() || !amountNode.isNumber()) {
      throw new IllegalArgumentException("no organisation, session id or amount");
    }
    BigDecimal amount = amountNode.decimalValue();
    if (amount.signum() <= 0 || !LedgerStore.storable(amount)) {
      throw new IllegalArgumentException("amount " + amount + " cannot be credited");
    }
    String code = data.path("currency").asString("");
    Currency currency = ledgerCurrency(code)
        .orElseThrow(() -> new IllegalArgumentException("no ledger account for currency " + code));
    return Optional.of(new Movement(organisationId, currency, MovementKind.CREDIT, SUCCEEDED + ":" + sessionId,
        amount));
  }

  /** The ledger account a checkout currency is credited to: KES is the ISO code of the ledger's KSH. */
  static Optional<Currency> ledgerCurrency(String checkoutCurrency) {
    return "KES".equals(checkoutCurrency) ? Optional.of(Currency.KSH) : Currency.of(checkoutCurrency);
  }
}
