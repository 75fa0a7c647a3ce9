package dev.lipa.payouts.ledger;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.kafka.RecordBatches;
import dev.lipa.common.kafka.RecordJson;
import dev.lipa.common.kafka.UnprocessableRecordException;
import dev.lipa.common.json.Money;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
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
 * twice (at least once, exactly once in effect). A record that can never be a credit goes to this consumer's dead
 * letters ({@code payments.collections.v1.payouts-ledger.dlt}, {@code /admin/v1/dead-letters}) and the rest of the
 * batch is credited; a replay credits it at most once, by the same movement id.
 */
@Component
class CollectionCredits {

  static final String GROUP = "payouts-ledger";
  /** The batch container factory's bean name, declared in {@link LedgerKafkaConfiguration}. */
  static final String CONTAINER_FACTORY = "ledgerCreditsContainerFactory";
  static final String STK_SUCCEEDED = "stk.succeeded";
  static final String BANK_RECEIVED = "bank.collection.received";
  private static final Logger log = LoggerFactory.getLogger(CollectionCredits.class);

  private final Ledger ledger;
  private final JsonMapper json;
  private final ObservationRegistry observations;

  CollectionCredits(Ledger ledger, JsonMapper json, ObjectProvider<ObservationRegistry> observations) {
    this.observations = observations.getIfAvailable(() -> ObservationRegistry.NOOP);
    this.ledger = ledger;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP + Topics.OfEnvironment.GROUP_SUFFIX,
      topics = Topics.OfEnvironment.COLLECTIONS, containerFactory = CONTAINER_FACTORY,
      batch = "true")
  void onCollectionEvents(List<ConsumerRecord<String, String>> records) {
    // store failures propagate: the container retries the batch uncommitted, and the movement ids keep it harmless; a
    // record that can never be a credit goes to this consumer's dead letters alone (RecordBatches)
    RecordBatches.readThenApply(observations, GROUP, records, this::credit, credits -> {
      List<Movement> applied = ledger.creditAll(credits);
      log.debug("credited {} of {} collection events ({} records)", applied.size(), credits.size(), records.size());
    });
  }

  /**
   * The credit a record asks for; null for events that credit nothing.
   *
   * @throws UnprocessableRecordException for a record that can never be a credit (unreadable, no organisation, an
   *     amount that is not a positive number the ledger can keep, an unknown currency)
   */
  private Movement credit(ConsumerRecord<String, String> record) {
    if (record.value() == null) {
      return null;
    }
    JsonNode event = RecordJson.parse(json, record.value());
    String type = event.path("type").asString("");
    if (!type.equals(STK_SUCCEEDED) && !type.equals(BANK_RECEIVED)) {
      return null;
    }
    try {
      return movement(type, event);
    } catch (UnprocessableRecordException e) {
      throw e;
    } catch (RuntimeException e) {
      // reading an event is pure (a field of the wrong JSON type, say): what fails here fails on every retry
      throw new UnprocessableRecordException("not a valid " + type + " event: " + e.getMessage(), e);
    }
  }

  private static Movement movement(String type, JsonNode event) {
    JsonNode data = event.path("data");
    String organisationId = event.path("organisationId").asString(null);
    BigDecimal amount;
    try {
      // bounded before anything adds it up: a number or a decimal string within every money field's bounds
      amount = Money.fromEvent(data.get("amount"));
    } catch (IllegalArgumentException e) {
      throw new UnprocessableRecordException("not a valid " + type + " event: data." + e.getMessage(), e);
    }
    String code = data.path("currency").isString() ? data.path("currency").stringValue() : Currency.KSH.name();
    Currency currency = Currency.of(code)
        .orElseThrow(() -> new UnprocessableRecordException("unknown currency " + code));
    String requestId = data.path("requestId").isString() ? data.path("requestId").stringValue() : null;
    String source = type + ":" + (requestId != null ? requestId : event.path("eventId").asString());
    if (organisationId == null || organisationId.isBlank() || amount.signum() <= 0) {
      throw new UnprocessableRecordException("no organisation or no positive amount");
    }
    if (!LedgerStore.storable(amount)) {
      throw new UnprocessableRecordException("amount " + amount + " has more digits than the ledger keeps");
    }
    return new Movement(OrganisationId.of(organisationId), currency, MovementKind.CREDIT, source, amount);
  }
}
