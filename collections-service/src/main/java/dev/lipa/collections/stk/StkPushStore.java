package dev.lipa.collections.stk;

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
import java.math.BigDecimal;
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
 * STK pushes in the {@value #COLLECTION} collection, one document per push keyed by its requestId, carrying its own
 * outbox. Every merchant-facing query filters on the organisation.
 */
@Component
public class StkPushStore {

  public static final String COLLECTION = "stk_pushes";
  /**
   * {@code stk_id_unique} on the numeric {@code id}; {@code stk_reference_unique} on {@code referenceKey}, the pair
   * (organisationId, referenceId) in one field present only when a referenceId was given; and
   * {@code stk_idempotency_unique} on {@code idempotencyKey}, the idempotency claim's record key, present only when
   * the request carried an {@code Idempotency-Key} (a retry that takes over a dead claimant's key cannot create a
   * second push).
   */
  static final UniqueKeys UNIQUE_KEYS = UniqueKeys.standard("stk");

  private static final String ID = "_id";
  private static final String ORGANISATION = "organisationId";
  private static final String STATUS = "status";
  private static final String CREATED_AT = "createdAt";
  private static final String REFERENCE_KEY = UNIQUE_KEYS.reference().field();

  private final OnceRecords<StkPush> records;
  private final MongoCollection<Document> collection;
  private final Outbox outbox;
  private final StkOutboxEvents outboxEvents;

  public StkPushStore(MongoDatabase database, Outboxes outboxes, StkOutboxEvents outboxEvents) {
    this.records = new OnceRecords<>(database, outboxes, COLLECTION, UNIQUE_KEYS, StkPushStore::toPush);
    this.collection = records.collection();
    this.outbox = records.outbox();
    this.outboxEvents = outboxEvents;
    // the list, newest first, and the overdue sweep (OverdueQuestions), oldest first: each
    // reads a range of its index in order, on MongoDB and on the embedded store alike
    collection.createIndex(Indexes.compoundIndex(Indexes.ascending(ORGANISATION), Indexes.descending(CREATED_AT)),
        new IndexOptions().name("stk_organisation_created"));
    // one per filter of the list, so a filtered page reads its page even when few of the merchant's pushes match
    for (String filter : List.of(STATUS, "currency", "phoneNumber")) {
      collection.createIndex(Indexes.compoundIndex(Indexes.ascending(ORGANISATION, filter),
          Indexes.descending(CREATED_AT)), new IndexOptions().name("stk_organisation_" + filter + "_created"));
    }
    collection.createIndex(Indexes.ascending(STATUS, CREATED_AT), new IndexOptions().name("stk_status_created"));
  }

  /**
   * Stores a new push PENDING with its events in the outbox: one insert. The document also carries the request's
   * fingerprint and, when the request had an {@code Idempotency-Key}, the claim's record key, so that a repeat can be
   * recognised from the push alone. Says which unique key refused the push, if one did (then nothing was written).
   */
  public Insert insert(StkPush push, Origin origin) {
    return records.insert(toDocument(push), origin, outboxEvents.toOutbox(push.events()));
  }

  /**
   * Calls {@code listener} with each event of the pushes that Kafka acknowledged (see {@link Outbox#onAcknowledged}),
   * on one of the outbox's threads.
   */
  public void onAcknowledged(Consumer<OutboxEvent> listener) {
    outbox.onAcknowledged(listener);
  }

  /** Whether the push is stored (asked after its insert failed: it may have been applied all the same). */
  public boolean holds(StkPush push) {
    return records.holds(push.organisationId(), push.requestId().toString());
  }

  public Optional<StkPush> find(OrganisationId organisationId, RequestId requestId) {
    return records.find(organisationId, requestId.toString());
  }

  /** The organisation's push with this referenceId, with the fingerprint of the request that created it. */
  public Optional<Earlier<StkPush>> findByReference(OrganisationId organisationId, String referenceId) {
    return records.byReference(organisationId, referenceKey(organisationId, referenceId));
  }

  /** The organisation's push created under this idempotency record key, with its request's fingerprint. */
  public Optional<Earlier<StkPush>> findByIdempotencyKey(OrganisationId organisationId, String idempotencyKey) {
    return records.byIdempotencyKey(organisationId, idempotencyKey);
  }

  /**
   * The organisation's pushes matching the query's filters, newest first ({@code createdAt}, then {@code id}, both
   * descending).
   */
  public List<StkPush> list(StkListQuery query) {
    return list(query, query.size());
  }

  /**
   * As {@link #list(StkListQuery)}, reading up to {@code limit} pushes (a page and one more tells whether a next page
   * exists). With a cursor the pushes are those strictly after its (createdAt, id), newest first: the upper bound on
   * {@code createdAt} is one range of the (organisation, [filter,] createdAt) indexes, the tie on id is matched.
   */
  public List<StkPush> list(StkListQuery query, int limit) {
    List<Bson> filters = new ArrayList<>();
    filters.add(Filters.eq(ORGANISATION, query.organisationId().value()));
    if (query.status() != null) {
      filters.add(Filters.eq(STATUS, query.status().name()));
    }
    if (query.currency() != null) {
      filters.add(Filters.eq("currency", query.currency().name()));
    }
    if (query.phoneNumber() != null) {
      filters.add(Filters.eq("phoneNumber", query.phoneNumber()));
    }
    filters.addAll(ListCursor.window(query.from(), query.to(), query.after()));
    return collection.find(Filters.and(filters))
        .projection(withoutOutbox())
        .sort(Sorts.descending(CREATED_AT, "id"))
        .skip(query.page() * query.size())
        .limit(limit)
        .map(StkPushStore::toPush)
        .into(new ArrayList<>());
  }

  /**
   * Writes a completed push and its events in one compare-and-set update that only matches while the stored push is
   * PENDING. Returns false, having written and emitted nothing, when another outcome got there first. The same write
   * removes the already acknowledged {@code stk.accepted} event when its removal is still held back (see
   * {@link Outbox#update(Object, Bson, Bson, List)}), so a push costs two writes in all.
   */
  public boolean complete(StkPush push) {
    if (push.status() == StkStatus.PENDING || push.result() == null) {
      throw new IllegalArgumentException("only a completed push can be saved as completed");
    }
    RailReference reference = push.railReference();
    StkPush.Result result = push.result();
    Bson expected = Filters.and(Filters.eq(ID, push.requestId().toString()),
        Filters.eq(ORGANISATION, push.organisationId().value()), Filters.eq(STATUS, StkStatus.PENDING.name()));
    List<Bson> changes = new ArrayList<>(List.of(
        Updates.set(STATUS, push.status().name()),
        Updates.set("updatedAt", Date.from(push.updatedAt())),
        Updates.set("merchantRequestId", reference.merchantRequestId()),
        Updates.set("checkoutRequestId", reference.checkoutRequestId()),
        Updates.set("responseCode", reference.responseCode()),
        Updates.set("responseDescription", reference.responseDescription()),
        Updates.set("customerMessage", reference.customerMessage()),
        Updates.set("resultCode", result.resultCode()),
        Updates.set("resultDescription", result.resultDescription()),
        Updates.set("callbackId", result.callbackId().toString())));
    if (result.receipt() != null) {
      changes.add(Updates.set("receipt", result.receipt()));
    }
    return outbox.update(push.requestId().toString(), expected, Updates.combine(changes),
        outboxEvents.toOutbox(push.events()));
  }

  private static Bson withoutOutbox() {
    return OnceRecords.withoutOutbox();
  }

  private static String referenceKey(OrganisationId organisationId, String referenceId) {
    return organisationId.value() + "\n" + referenceId;
  }

  static Document toDocument(StkPush push) {
    StkPush.Details d = push.details();
    Document document = new Document(ID, d.requestId().toString())
        .append("id", d.id())
        .append(ORGANISATION, d.organisationId().value());
    if (d.referenceId() != null) {
      document.append("referenceId", d.referenceId())
          .append(REFERENCE_KEY, referenceKey(d.organisationId(), d.referenceId()));
    }
    return document
        .append("phoneNumber", d.phoneNumber())
        .append("description", d.description())
        .append("accountReference", d.accountReference())
        .append("amount", new Decimal128(d.amount()))
        .append("currency", d.currency().name())
        .append("callbackUrl", d.callbackUrl())
        .append("channel", d.channel() == null ? null : d.channel().code())
        .append("narration", d.narration())
        .append("customerName", d.customerName())
        .append(STATUS, push.status().name())
        .append(CREATED_AT, Date.from(d.createdAt()))
        .append("updatedAt", Date.from(push.updatedAt()));
  }

  static StkPush toPush(Document document) {
    StkPush.Details details = new StkPush.Details(
        document.get("id", Number.class).longValue(),
        RequestId.of(UUID.fromString(document.getString(ID))),
        OrganisationId.of(document.getString(ORGANISATION)),
        document.getString("referenceId"),
        document.getString("phoneNumber"),
        document.getString("description"),
        document.getString("accountReference"),
        amount(document.get("amount")),
        StkCurrency.valueOf(document.getString("currency")),
        document.getString("callbackUrl"),
        document.getDate(CREATED_AT).toInstant(),
        document.getString("channel") == null ? null : TzChannel.of(document.getString("channel")).orElseThrow(),
        document.getString("narration"),
        document.getString("customerName"));
    RailReference reference = document.getString("merchantRequestId") == null ? null : new RailReference(
        document.getString("merchantRequestId"), document.getString("checkoutRequestId"),
        document.get("responseCode", Number.class).intValue(), document.getString("responseDescription"),
        document.getString("customerMessage"));
    StkPush.Result result = document.get("resultCode") == null ? null : new StkPush.Result(
        document.get("resultCode", Number.class).intValue(), document.getString("resultDescription"),
        document.getString("receipt"), UUID.fromString(document.getString("callbackId")));
    return StkPush.restore(details, StkStatus.valueOf(document.getString(STATUS)),
        document.getDate("updatedAt").toInstant(), reference, result);
  }

  private static BigDecimal amount(Object stored) {
    return stored instanceof Decimal128 decimal ? decimal.bigDecimalValue() : new BigDecimal(stored.toString());
  }
}
