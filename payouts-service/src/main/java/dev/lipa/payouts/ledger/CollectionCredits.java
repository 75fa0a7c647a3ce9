package dev.lipa.payouts.ledger;

import dev.lipa.common.events.Topics;
import dev.lipa.common.json.Money;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
 *
 * <p><b>A batch listener</b> (container factory {@value #CONTAINER_FACTORY}): a flash sale credits one account
 * thousands of times a second, and record by record every credit was its own journal read, account update, journal
 * insert and clean-up, all serialised on that one account document. Here a poll's records are read first, then
 * {@link Ledger#creditAll} applies them per account in one journal query and one guarded update each (see
 * {@link LedgerStore}), and only then does the container commit the batch's offsets: a crash or a store failure
 * before that redelivers the whole batch, and the movement ids make the redelivered credits refused, not counted
 * twice (at least once, exactly once in effect).
 */
@Component
class CollectionCredits {

  static final String GROUP = "payouts-ledger";
  /** The batch container factory's bean name, declared in {@code dev.lipa.payouts.config.LedgerKafkaConfiguration}. */
  static final String CONTAINER_FACTORY = "ledgerCreditsContainerFactory";
  static final String STK_SUCCEEDED = "stk.succeeded";
  static final String BANK_RECEIVED = "bank.collection.received";
  private static final Logger log = LoggerFactory.getLogger(CollectionCredits.class);

  private final Ledger ledger;
  private final JsonMapper json;

  CollectionCredits(Ledger ledger, JsonMapper json) {
    this.ledger = ledger;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP, topics = Topics.COLLECTIONS, containerFactory = CONTAINER_FACTORY,
      batch = "true")
  void onCollectionEvents(List<ConsumerRecord<String, String>> records) {
    List<Movement> credits = new ArrayList<>(records.size());
    for (ConsumerRecord<String, String> record : records) {
      Movement credit = credit(record);
      if (credit != null) {
        credits.add(credit);
      }
    }
    if (credits.isEmpty()) {
      return;
    }
    // store failures propagate: the container retries the batch uncommitted, and the movement ids keep it harmless
    List<Movement> applied = ledger.creditAll(credits);
    log.debug("credited {} of {} collection events ({} records)", applied.size(), credits.size(), records.size());
  }

  /** The credit a record asks for; null for events that credit nothing and for unreadable records (logged). */
  private Movement credit(ConsumerRecord<String, String> record) {
    try {
      JsonNode event = json.readTree(record.value());
      String type = event.path("type").asString("");
      if (!type.equals(STK_SUCCEEDED) && !type.equals(BANK_RECEIVED)) {
        return null;
      }
      JsonNode data = event.path("data");
      String organisationId = event.path("organisationId").asString();
      // bounded before anything adds it up: a number or a decimal string within every money field's bounds
      BigDecimal amount = Money.fromEvent(data.get("amount"));
      String code = data.path("currency").isString() ? data.path("currency").stringValue() : Currency.KSH.name();
      Currency currency = Currency.of(code).orElseThrow(() -> new IllegalArgumentException("unknown currency " + code));
      String requestId = data.path("requestId").isString() ? data.path("requestId").stringValue() : null;
      String source = type + ":" + (requestId != null ? requestId : event.path("eventId").asString());
      if (organisationId == null || organisationId.isBlank() || amount.signum() <= 0) {
        throw new IllegalArgumentException("no organisation or no positive amount");
      }
      if (!LedgerStore.storable(amount)) {
        // would fail in the store on every retry and hold the partition
        throw new IllegalArgumentException("amount " + amount + " has more digits than the ledger keeps");
      }
      return new Movement(organisationId, currency, MovementKind.CREDIT, source, amount);
    } catch (RuntimeException e) {
      // an unreadable record must not block the partition (nor the rest of its batch)
      log.warn("collection event on {} (partition {}, offset {}) not credited: {}", Topics.COLLECTIONS,
          record.partition(), record.offset(), e.toString());
      return null;
    }
  }
}
