package dev.lipa.payouts.deallocation;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.Outboxes;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.requests.Claims;
import dev.lipa.payouts.requests.RequestIdentity;
import dev.lipa.payouts.requests.RequestKeys;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Decimal128;
import org.springframework.stereotype.Component;

/**
 * Allocations and de-allocations in {@value #COLLECTION}, one document per transfer keyed by its requestId, with the
 * referenceId and Idempotency-Key of the request that created it under unique indexes ({@link RequestKeys}).
 *
 * <p>A PENDING transfer is <b>claimed</b>: {@code claimant} (a random token of whoever carries it on) until
 * {@code claimedUntil}. Only the claimant completes or discards it, so the request that created it and the resume job
 * that takes over an abandoned one never decide its end differently.
 */
@Component
public class TransferStore {

  public static final String COLLECTION = "transfers";
  static final String INDEX_PREFIX = "transfer";
  private static final String ID = "_id";
  private static final String STATUS = "status";
  private static final String INITIATED_BY = "initiatedBy";

  private final MongoCollection<Document> collection;
  private final Outbox outbox;
  private final TransferOutboxEvents events;

  public TransferStore(MongoDatabase database, Outboxes outboxes, TransferOutboxEvents events) {
    this.collection = database.getCollection(COLLECTION);
    this.outbox = outboxes.of(collection);
    this.events = events;
    RequestKeys.createIndexes(collection, INDEX_PREFIX);
    // the embedded store ignores these; a real MongoDB serves the lists and the resume sweep from them
    collection.createIndex(Indexes.ascending("subAccountId", "type", "createdAt"),
        new IndexOptions().name("transfer_sub_account"));
    collection.createIndex(Indexes.ascending("parentOrganisationId", "type", "createdAt"),
        new IndexOptions().name("transfer_parent"));
    collection.createIndex(Indexes.ascending(STATUS, "createdAt"), new IndexOptions().name("transfer_status"));
  }

  /**
   * Stores a new transfer PENDING, claimed by {@code claimant} until {@code claimedUntil}: one insert.
   *
   * @throws dev.lipa.payouts.requests.RepeatedRequestException when an earlier request holds the referenceId or the
   *     Idempotency-Key
   */
  void insert(Transfer transfer, RequestIdentity identity, String claimant, Instant claimedUntil) {
    Document document = new Document(ID, transfer.requestId().toString())
        .append("type", transfer.type().name())
        .append("parentOrganisationId", transfer.parentOrganisationId().value())
        .append("subAccountId", transfer.subAccountId().value())
        .append(INITIATED_BY, transfer.initiatedBy().value())
        .append("currency", transfer.currency().name())
        .append("amount", new Decimal128(transfer.amount()))
        .append(STATUS, transfer.status().name())
        .append("createdAt", Date.from(transfer.createdAt()))
        .append("updatedAt", Date.from(transfer.updatedAt()));
    RequestKeys.insert(collection, INDEX_PREFIX, Claims.stamp(document, claimant, claimedUntil), identity);
  }

  /** The transfer an earlier request with the same referenceId or Idempotency-Key created (by the same caller). */
  Optional<RequestKeys.Match<Transfer>> findRepeat(RequestIdentity identity) {
    return RequestKeys.findRepeat(collection, INITIATED_BY, identity, readable(), TransferStore::read);
  }

  /** One transfer the caller initiated. */
  Optional<Transfer> find(OrganisationId initiatedBy, RequestId requestId) {
    return Optional.ofNullable(collection.find(Filters.and(Filters.eq(ID, requestId.toString()),
        Filters.eq(INITIATED_BY, initiatedBy.value()))).projection(readable()).first()).map(TransferStore::read);
  }

  /**
   * Compare-and-set PENDING (claimed by {@code claimant}) to the transfer's status, with its {@code allocation.*} or
   * {@code deallocation.*} event on {@value Topics#PAYOUTS} in the same write; false when it was completed already
   * or the claim passed to someone else.
   */
  boolean complete(Transfer transfer, String claimant) {
    return outbox.update(claimed(transfer, claimant),
        Updates.combine(Updates.set(STATUS, transfer.status().name()),
            Updates.set("updatedAt", Date.from(transfer.updatedAt())), Claims.released()),
        List.of(events.completed(transfer)));
  }

  /**
   * Deletes a PENDING transfer the paying account could not cover (nothing moved), so that the refused request leaves
   * nothing behind and its referenceId and key stay free; false when the claim passed to someone else.
   */
  boolean discard(Transfer transfer, String claimant) {
    return collection.deleteOne(claimed(transfer, claimant)).getDeletedCount() > 0;
  }

  /** The de-allocations of one sub-account, newest first. */
  List<Transfer> deallocationsOf(OrganisationId subAccountId) {
    return collection.find(Filters.and(Filters.eq("subAccountId", subAccountId.value()),
            Filters.eq("type", Transfer.Type.DEALLOCATION.name())))
        .projection(readable())
        .sort(Sorts.descending("createdAt")).map(TransferStore::read).into(new ArrayList<>());
  }

  /** The de-allocations of every sub-account of one parent, newest first. */
  List<Transfer> deallocationsUnder(OrganisationId parentOrganisationId) {
    return collection.find(Filters.and(Filters.eq("parentOrganisationId", parentOrganisationId.value()),
            Filters.eq("type", Transfer.Type.DEALLOCATION.name())))
        .projection(readable())
        .sort(Sorts.descending("createdAt")).map(TransferStore::read).into(new ArrayList<>());
  }

  /**
   * Takes over PENDING transfers created before {@code createdBefore} whose claim has ended, for {@code claimant}
   * until {@code claimedUntil} ({@link Claims#takeOverAbandoned}; a system job, not scoped by organisation).
   */
  List<Transfer> claimAbandoned(Instant createdBefore, Instant now, String claimant, Instant claimedUntil,
      int limit) {
    return Claims.takeOverAbandoned(collection, Transfer.Status.PENDING.name(), createdBefore, now, claimant,
        claimedUntil, limit, readable(), TransferStore::read);
  }

  private static Bson claimed(Transfer transfer, String claimant) {
    return Claims.heldBy(transfer.requestId().toString(), Transfer.Status.PENDING.name(), claimant);
  }

  private static Bson readable() {
    return Projections.exclude(Outbox.EVENTS, Outbox.PENDING_SINCE);
  }

  private static Transfer read(Document d) {
    Object amount = d.get("amount");
    return new Transfer(RequestId.of(UUID.fromString(d.getString(ID))), Transfer.Type.valueOf(d.getString("type")),
        OrganisationId.of(d.getString("parentOrganisationId")), OrganisationId.of(d.getString("subAccountId")),
        OrganisationId.of(d.getString(INITIATED_BY)),
        Currency.valueOf(d.getString("currency")),
        amount instanceof Decimal128 dec ? dec.bigDecimalValue() : new BigDecimal(amount.toString()),
        RequestKeys.referenceId(d), Transfer.Status.valueOf(d.getString(STATUS)), d.getDate("createdAt").toInstant(),
        d.getDate("updatedAt").toInstant());
  }
}
