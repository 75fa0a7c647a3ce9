package dev.lipa.payouts.topup;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.ledger.Balance;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.requests.Claims;
import dev.lipa.payouts.requests.RequestIdentity;
import dev.lipa.payouts.requests.RequestKeys;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.springframework.stereotype.Component;

/**
 * Sandbox top-ups in {@value #COLLECTION}, one document per top-up keyed by its requestId, with the referenceId and
 * Idempotency-Key of the request that created it under unique indexes ({@link RequestKeys}). A PENDING top-up is
 * claimed ({@code claimant} until {@code claimedUntil}) like a transfer: only its claimant marks it APPLIED.
 */
@Component
class TopUpStore {

  static final String COLLECTION = "top_ups";
  private static final String INDEX_PREFIX = "top_up";
  private static final String ID = "_id";
  private static final String ORGANISATION = "organisationId";
  private static final String STATUS = "status";

  private final MongoCollection<Document> collection;

  TopUpStore(MongoDatabase database) {
    this.collection = database.getCollection(COLLECTION);
    RequestKeys.createIndexes(collection, INDEX_PREFIX);
    // the embedded store ignores it; a real MongoDB serves the resume sweep from it
    collection.createIndex(Indexes.ascending(STATUS, "createdAt"), new IndexOptions().name("top_up_status"));
  }

  /**
   * Stores a new top-up PENDING, claimed by {@code claimant} until {@code claimedUntil}: one insert.
   *
   * @throws dev.lipa.payouts.requests.RepeatedRequestException when an earlier request holds the referenceId or the
   *     Idempotency-Key
   */
  void insert(TopUp topUp, RequestIdentity identity, String claimant, Instant claimedUntil) {
    Document document = new Document(ID, topUp.requestId().toString())
        .append(ORGANISATION, topUp.organisationId().value())
        .append("currency", topUp.currency().name())
        .append("amount", new Decimal128(topUp.amount()))
        .append(STATUS, topUp.status().name())
        .append("createdAt", Date.from(topUp.createdAt()))
        .append("updatedAt", Date.from(topUp.updatedAt()));
    RequestKeys.insert(collection, INDEX_PREFIX, Claims.stamp(document, claimant, claimedUntil), identity);
  }

  /** The top-up an earlier request of the same organisation with the same referenceId or Idempotency-Key created. */
  Optional<RequestKeys.Match<TopUp>> findRepeat(RequestIdentity identity) {
    return RequestKeys.findRepeat(collection, ORGANISATION, identity, Claims.hidden(), TopUpStore::read);
  }

  /** Compare-and-set PENDING (claimed by {@code claimant}) to APPLIED with the balance after; false otherwise. */
  boolean complete(TopUp applied, String claimant) {
    Balance after = applied.balanceAfter();
    return collection.updateOne(Claims.heldBy(applied.requestId().toString(), TopUp.Status.PENDING.name(), claimant),
        Updates.combine(Updates.set(STATUS, applied.status().name()),
            Updates.set("availableAfter", new Decimal128(after.available())),
            Updates.set("reservedAfter", new Decimal128(after.reserved())),
            Updates.set("updatedAt", Date.from(applied.updatedAt())), Claims.released())).getModifiedCount() > 0;
  }

  /**
   * Takes over PENDING top-ups created before {@code createdBefore} whose claim has ended, for {@code claimant} until
   * {@code claimedUntil} ({@link Claims#takeOverAbandoned}; a system job, not scoped by organisation).
   */
  List<TopUp> claimAbandoned(Instant createdBefore, Instant now, String claimant, Instant claimedUntil, int limit) {
    return Claims.takeOverAbandoned(collection, TopUp.Status.PENDING.name(), createdBefore, now, claimant,
        claimedUntil, limit, Claims.hidden(), TopUpStore::read);
  }

  private static TopUp read(Document d) {
    Currency currency = Currency.valueOf(d.getString("currency"));
    Balance after = d.get("availableAfter") == null ? null
        : new Balance(currency, decimal(d.get("availableAfter")), decimal(d.get("reservedAfter")));
    return new TopUp(RequestId.of(UUID.fromString(d.getString(ID))), OrganisationId.of(d.getString(ORGANISATION)),
        currency, decimal(d.get("amount")),
        RequestKeys.referenceId(d), TopUp.Status.valueOf(d.getString(STATUS)), after,
        d.getDate("createdAt").toInstant(), d.getDate("updatedAt").toInstant());
  }

  private static BigDecimal decimal(Object stored) {
    return stored instanceof Decimal128 d ? d.bigDecimalValue() : new BigDecimal(stored.toString());
  }
}
