package dev.lipa.payouts.payout;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.lookups.ListCursor;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.once.Earlier;
import dev.lipa.common.once.Insert;
import dev.lipa.common.once.OnceRecords;
import dev.lipa.common.once.Origin;
import dev.lipa.common.once.UniqueKeys;
import dev.lipa.common.outbox.Outboxes;
import dev.lipa.payouts.ledger.ReservationOwners;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Decimal128;
import org.springframework.stereotype.Component;

/**
 * Payouts of every kind in the {@value #COLLECTION} collection, one document per payout keyed by its requestId,
 * carrying its own outbox. Every merchant-facing query filters on the organisation.
 */
@Component
public class PayoutStore implements ReservationOwners {

  public static final String COLLECTION = "payouts";
  /**
   * {@code payout_id_unique} on the numeric {@code id}; {@code payout_reference_unique} on {@code referenceKey},
   * (organisationId, kind, referenceId) in one field present only with a referenceId; {@code payout_idempotency_unique}
   * on the idempotency claim's record key.
   */
  static final UniqueKeys UNIQUE_KEYS = UniqueKeys.standard("payout");

  private static final String ID = "_id";
  private static final String ORGANISATION = "organisationId";
  private static final String KIND = "kind";
  private static final String STATUS = "status";
  private static final String CREATED_AT = "createdAt";
  private static final String REFERENCE_KEY = UNIQUE_KEYS.reference().field();

  private final OnceRecords<Payout> records;
  private final MongoCollection<Document> collection;
  private final Outbox outbox;
  private final PayoutOutboxEvents outboxEvents;

  public PayoutStore(MongoDatabase database, Outboxes outboxes, PayoutOutboxEvents outboxEvents) {
    this.records = new OnceRecords<>(database, outboxes, COLLECTION, UNIQUE_KEYS, PayoutStore::toPayout);
    this.collection = records.collection();
    this.outbox = records.outbox();
    this.outboxEvents = outboxEvents;
    collection.createIndex(Indexes.compoundIndex(Indexes.ascending(ORGANISATION, KIND), Indexes.descending(CREATED_AT)),
        new IndexOptions().name("payout_organisation_kind_created"));
    // one per filter of the list, so a filtered page reads its page even when few of the merchant's payouts match
    for (String filter : List.of(STATUS, "currency")) {
      collection.createIndex(Indexes.compoundIndex(Indexes.ascending(ORGANISATION, KIND, filter),
          Indexes.descending(CREATED_AT)), new IndexOptions().name("payout_organisation_kind_" + filter + "_created"));
    }
    collection.createIndex(Indexes.ascending(STATUS, CREATED_AT), new IndexOptions().name("payout_status_created"));
  }

  /**
   * Stores a new payout PENDING with its events in the outbox, stamped with its request's fingerprint and claim: one
   * insert. Says which unique key refused it, if one did (then nothing was written).
   */
  public Insert insert(Payout payout, Origin origin) {
    return records.insert(toDocument(payout), origin, outboxEvents.toOutbox(payout.events()));
  }

  /**
   * Calls {@code listener} with each event of the payouts that Kafka acknowledged (see {@link Outbox#onAcknowledged}),
   * on one of the outbox's threads.
   */
  public void onAcknowledged(Consumer<OutboxEvent> listener) {
    outbox.onAcknowledged(listener);
  }

  public Optional<Payout> find(OrganisationId organisationId, RequestId requestId) {
    return records.find(organisationId, requestId.toString());
  }

  @Override
  public boolean owns(OrganisationId organisationId, RequestId requestId) {
    return records.holds(organisationId, requestId.toString());
  }

  public Optional<Earlier<Payout>> findByReference(OrganisationId organisationId, PayoutKind kind,
      String referenceId) {
    return records.byReference(organisationId, referenceKey(organisationId, kind, referenceId));
  }

  public Optional<Earlier<Payout>> findByIdempotencyKey(OrganisationId organisationId, String idempotencyKey) {
    return records.byIdempotencyKey(organisationId, idempotencyKey);
  }

  /** The organisation's payouts of one kind matching the query, newest first. */
  public List<Payout> list(PayoutListQuery query) {
    return list(query, query.size());
  }

  /**
   * As {@link #list(PayoutListQuery)}, reading up to {@code limit} payouts (a page and one more tells whether a next
   * page exists). With a cursor the payouts are those strictly after its (createdAt, id), newest first: the upper bound
   * on {@code createdAt} is one range of the (organisation, kind, [filter,] createdAt) indexes, the tie on id is
   * matched.
   */
  public List<Payout> list(PayoutListQuery query, int limit) {
    List<Bson> filters = new ArrayList<>();
    filters.add(Filters.eq(ORGANISATION, query.organisationId().value()));
    filters.add(Filters.eq(KIND, query.kind().name()));
    if (query.status() != null) {
      filters.add(Filters.eq(STATUS, query.status().name()));
    }
    if (query.currency() != null) {
      filters.add(Filters.eq("currency", query.currency().name()));
    }
    filters.addAll(ListCursor.window(query.from(), query.to(), query.after()));
    return collection.find(Filters.and(filters)).projection(withoutOutbox())
        .sort(Sorts.descending(CREATED_AT, "id"))
        .skip(query.page() * query.size()).limit(limit)
        .map(PayoutStore::toPayout).into(new ArrayList<>());
  }

  /**
   * Writes a completed payout and its events in one compare-and-set update that matches only while the stored payout
   * is PENDING. Returns false, having written and emitted nothing, when another outcome got there first.
   */
  public boolean complete(Payout payout) {
    Payout.Result result = payout.result();
    if (payout.status() == PayoutStatus.PENDING || result == null) {
      throw new IllegalArgumentException("only a completed payout can be saved as completed");
    }
    Bson expected = Filters.and(Filters.eq(ID, payout.requestId().toString()),
        Filters.eq(ORGANISATION, payout.organisationId().value()), Filters.eq(STATUS, PayoutStatus.PENDING.name()));
    Bson changes = Updates.combine(
        Updates.set(STATUS, payout.status().name()),
        Updates.set("updatedAt", Date.from(payout.updatedAt())),
        Updates.set("conversationId", result.conversationId()),
        Updates.set("responseCode", result.responseCode()),
        Updates.set("responseDescription", result.responseDescription()),
        Updates.set("resultCode", result.resultCode()),
        Updates.set("resultDescription", result.resultDescription()),
        Updates.set("transactionReceipt", result.transactionReceipt()),
        Updates.set("receiverName", result.receiverName()),
        Updates.set("callbackId", result.callbackId().toString()));
    return outbox.update(payout.requestId().toString(), expected, changes, outboxEvents.toOutbox(payout.events()));
  }

  /** PENDING payouts of every organisation created before the cut-off, oldest first (the overdue sweep's list). */
  public List<Payout> overduePending(Instant createdBefore, int limit) {
    return collection.find(Filters.and(Filters.eq(STATUS, PayoutStatus.PENDING.name()),
            Filters.lt(CREATED_AT, Date.from(createdBefore))))
        .projection(withoutOutbox()).sort(Sorts.ascending(CREATED_AT)).limit(limit)
        .map(PayoutStore::toPayout).into(new ArrayList<>());
  }

  private static Bson withoutOutbox() {
    return OnceRecords.withoutOutbox();
  }

  private static String referenceKey(OrganisationId organisationId, PayoutKind kind, String referenceId) {
    return organisationId.value() + "\n" + kind.name() + "\n" + referenceId;
  }

  static Document toDocument(Payout payout) {
    Payout.Details d = payout.details();
    PayoutRequest r = d.request();
    Document document = new Document(ID, d.requestId().toString())
        .append("id", d.id())
        .append(ORGANISATION, d.organisationId().value())
        .append(KIND, r.kind().name());
    if (r.referenceId() != null) {
      document.append("referenceId", r.referenceId())
          .append(REFERENCE_KEY, referenceKey(d.organisationId(), r.kind(), r.referenceId()));
    }
    return document
        .append("amount", new Decimal128(r.amount()))
        .append("currency", r.currency().name())
        .append("callbackUrl", r.callbackUrl())
        .append("phoneNumber", r.phoneNumber())
        .append("businessNumber", r.businessNumber())
        .append("accountNumber", r.accountNumber())
        .append("remarks", r.remarks())
        .append("occasion", r.occasion())
        .append("narration", r.narration())
        .append("firstName", r.firstName())
        .append("lastName", r.lastName())
        .append("customerName", r.customerName())
        .append("serviceCode", r.serviceCode())
        .append("originatorConversationId", d.originatorConversationId())
        .append(STATUS, payout.status().name())
        .append(CREATED_AT, Date.from(d.createdAt()))
        .append("updatedAt", Date.from(payout.updatedAt()));
  }

  static Payout toPayout(Document document) {
    PayoutRequest request = new PayoutRequest(PayoutKind.valueOf(document.getString(KIND)),
        Currency.valueOf(document.getString("currency")), amount(document.get("amount")),
        document.getString("callbackUrl"), document.getString("referenceId"), document.getString("phoneNumber"),
        document.getString("businessNumber"), document.getString("accountNumber"), document.getString("remarks"),
        document.getString("occasion"), document.getString("narration"), document.getString("firstName"),
        document.getString("lastName"), document.getString("customerName"), document.getString("serviceCode"));
    Payout.Details details = new Payout.Details(document.get("id", Number.class).longValue(),
        RequestId.of(UUID.fromString(document.getString(ID))),
        OrganisationId.of(document.getString(ORGANISATION)), request,
        document.getString("originatorConversationId"), document.getDate(CREATED_AT).toInstant());
    Payout.Result result = document.get("resultCode") == null ? null : new Payout.Result(
        document.getString("conversationId"), document.get("responseCode", Number.class).intValue(),
        document.getString("responseDescription"), document.get("resultCode", Number.class).intValue(),
        document.getString("resultDescription"), document.getString("transactionReceipt"),
        document.getString("receiverName"), UUID.fromString(document.getString("callbackId")));
    return Payout.restore(details, PayoutStatus.valueOf(document.getString(STATUS)),
        document.getDate("updatedAt").toInstant(), result);
  }

  private static BigDecimal amount(Object stored) {
    return stored instanceof Decimal128 decimal ? decimal.bigDecimalValue() : new BigDecimal(stored.toString());
  }
}
