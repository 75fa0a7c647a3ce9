package dev.lipa.payouts.ledger;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.kafka.RecordBatches;
import dev.lipa.common.kafka.RecordJson;
import dev.lipa.common.json.Money;
import dev.lipa.common.kafka.UnprocessableRecordException;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
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
 * container factory): records are read first, {@link Ledger#creditAll} applies them, store failures propagate so
 * the container retries the batch uncommitted, and a card payment that can never be credited goes to this consumer's
 * dead letters, where operators see it and can replay it.
 */
@Component
class CheckoutCredits {

  static final String GROUP = "payouts-checkout-credits";
  static final String SUCCEEDED = "checkout.succeeded";
  static final String CARD = "CARD";
  private static final Logger log = LoggerFactory.getLogger(CheckoutCredits.class);

  private final Ledger ledger;
  private final JsonMapper json;
  private final ObservationRegistry observations;

  CheckoutCredits(Ledger ledger, JsonMapper json, ObjectProvider<ObservationRegistry> observations) {
    this.observations = observations.getIfAvailable(() -> ObservationRegistry.NOOP);
    this.ledger = ledger;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP + Topics.OfEnvironment.GROUP_SUFFIX,
      topics = Topics.OfEnvironment.CHECKOUT,
      containerFactory = CollectionCredits.CONTAINER_FACTORY, batch = "true")
  void onCheckoutEvents(List<ConsumerRecord<String, String>> records) {
    // store failures propagate: the container retries the batch uncommitted, and the movement ids keep it harmless; a
    // record that can never be a credit goes to this consumer's dead letters alone (RecordBatches)
    RecordBatches.readThenApply(observations, GROUP, records, this::read, credits -> {
      List<Movement> applied = ledger.creditAll(credits);
      log.debug("credited {} of {} card payments ({} records)", applied.size(), credits.size(), records.size());
    });
  }

  /** The credit a record asks for, or null; an unreadable or uncreditable card payment is unprocessable. */
  private Movement read(ConsumerRecord<String, String> record) {
    if (record.value() == null) {
      return null;
    }
    try {
      return credit(RecordJson.parse(json, record.value())).orElse(null);
    } catch (UnprocessableRecordException e) {
      throw e;
    } catch (RuntimeException e) {
      // reading an event is pure: what fails here fails on every retry
      throw new UnprocessableRecordException("not a creditable checkout event: " + e.getMessage(), e);
    }
  }

  /**
   * The credit an event asks for: a card payment's; empty for every other event (other types, M-Pesa payments).
   *
   * @throws IllegalArgumentException for a card payment that cannot be credited as it is (the listener dead-letters
   *     its record)
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
    if (organisationId.isBlank() || sessionId.isBlank() || !data.path("amount").isNumber()) {
      throw new IllegalArgumentException("no organisation, session id or amount");
    }
    // bounded before anything adds it up (Money.fromEvent refuses what no money field accepts)
    BigDecimal amount = Money.fromEvent(data.get("amount"));
    if (!LedgerStore.storable(amount)) {
      throw new IllegalArgumentException("amount " + amount + " cannot be credited");
    }
    String code = data.path("currency").asString("");
    Currency currency = ledgerCurrency(code)
        .orElseThrow(() -> new IllegalArgumentException("no ledger account for currency " + code));
    return Optional.of(new Movement(OrganisationId.of(organisationId), currency, MovementKind.CREDIT,
        SUCCEEDED + ":" + sessionId, amount));
  }

  /** The ledger account a checkout currency is credited to: KES is the ISO code of the ledger's KSH. */
  static Optional<Currency> ledgerCurrency(String checkoutCurrency) {
    return "KES".equals(checkoutCurrency) ? Optional.of(Currency.KSH) : Currency.of(checkoutCurrency);
  }
}
