package dev.lipa.payouts.ledger;

import dev.lipa.common.events.Topics;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Credits organisations with their successful collections from {@value Topics#COLLECTIONS} (group
 * {@value #GROUP}): {@code stk.succeeded} ({@code data.amount}, {@code data.currency}) and
 * {@code bank.collection.received} ({@code data.amount}, a number or a decimal string; {@code data.currency}, KSH
 * when absent). A collection credits once: the movement is keyed by the event's requestId (else its eventId), so a
 * redelivered or republished event changes nothing.
 */
@Component
class CollectionCredits {

  static final String GROUP = "payouts-ledger";
  static final String STK_SUCCEEDED = "stk.succeeded";
  static final String BANK_RECEIVED = "bank.collection.received";
  private static final Logger log = LoggerFactory.getLogger(CollectionCredits.class);

  private final Ledger ledger;
  private final JsonMapper json;

  CollectionCredits(Ledger ledger, JsonMapper json) {
    this.ledger = ledger;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP, topics = Topics.COLLECTIONS)
  void onCollectionEvent(String value) {
    JsonNode event;
    String type;
    String organisationId;
    Currency currency;
    BigDecimal amount;
    String source;
    try {
      event = json.readTree(value);
      type = event.path("type").asString("");
      if (!type.equals(STK_SUCCEEDED) && !type.equals(BANK_RECEIVED)) {
        return;
      }
      JsonNode data = event.path("data");
      organisationId = event.path("organisationId").asString();
      JsonNode amountNode = data.path("amount");
      amount = amountNode.isNumber() ? amountNode.decimalValue() : new BigDecimal(amountNode.asString());
      String code = data.path("currency").isString() ? data.path("currency").stringValue() : Currency.KSH.name();
      currency = Currency.of(code).orElseThrow(() -> new IllegalArgumentException("unknown currency " + code));
      String requestId = data.path("requestId").isString() ? data.path("requestId").stringValue() : null;
      source = type + ":" + (requestId != null ? requestId : event.path("eventId").asString());
      if (organisationId == null || organisationId.isBlank() || amount.signum() <= 0) {
        throw new IllegalArgumentException("no organisation or no positive amount");
      }
    } catch (RuntimeException e) {
      // an unreadable record must not block the partition
      log.warn("collection event on {} not credited: {}", Topics.COLLECTIONS, e.toString());
      return;
    }
    // store failures propagate: the container retries the record, and the movement id keeps the retry harmless
    if (ledger.credit(organisationId, currency, source, amount)) {
      log.debug("credited {} {} to {} for {}", amount, currency, organisationId, source);
    }
  }
}
