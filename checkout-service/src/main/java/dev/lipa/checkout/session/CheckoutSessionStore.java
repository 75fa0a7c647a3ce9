package dev.lipa.checkout.session;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.once.Earlier;
import dev.lipa.common.once.Insert;
import dev.lipa.common.once.OnceRecords;
import dev.lipa.common.once.Origin;
import dev.lipa.common.once.UniqueKeys;
import dev.lipa.common.outbox.Outboxes;
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
 * Checkout sessions in the collection {@value #COLLECTION} ({@code _id} = session id). Every change is a
 * compare-and-set on {@code version} that carries the change's events in the same write (single-document outbox).
 * Merchant reads are scoped by organisation; the hosted page reads by the unguessable checkoutRef only.
 */
@Component
public class CheckoutSessionStore {

  public static final String COLLECTION = "checkout_sessions";
  /**
   * {@code checkout_ref} on the minted checkoutRef; {@code checkout_idempotency} on {@code idempotencyRecordKey}, so
   * that a retry of a create with the same Idempotency-Key finds the session its first try made (the record key is a
   * random UUID: unique on its own; sparse so that sessions without a key never collide). Sessions have no
   * referenceId.
   */
  static final UniqueKeys UNIQUE_KEYS = new UniqueKeys(new UniqueKeys.Index("checkout_ref", "checkoutRef"), null,
      new UniqueKeys.Index("checkout_idempotency", "idempotencyRecordKey"));

  private final OnceRecords<CheckoutSession> records;
  private final MongoCollection<Document> collection;
  private final Outbox outbox;
  private final CheckoutOutboxEvents outboxEvents;

  public CheckoutSessionStore(MongoDatabase database, Outboxes outboxes, CheckoutOutboxEvents outboxEvents) {
    this.records = new OnceRecords<>(database, outboxes, COLLECTION, UNIQUE_KEYS, CheckoutSessionStore::read);
    this.collection = records.collection();
    this.outbox = records.outbox();
    this.outboxEvents = outboxEvents;
    // the expiry job's scan (ignored by the embedded store, used by a real MongoDB)
    collection.createIndex(Indexes.ascending("status", "expiresAt"), new IndexOptions().name("checkout_expiry"));
  }

  /**
   * A new session with its events, stamped with its request's fingerprint and claim; one write. Says which unique key
   * refused it, if one did (then nothing was written).
   */
  public Insert insert(CheckoutSession session, Origin origin) {
    return records.insert(toDocument(session), origin, outboxEvents.toOutbox(session, session.events()));
  }

  /**
   * Writes the session's transitions since it was read, with their events, if nobody changed it meanwhile. Returns
   * false when the version moved on (the caller re-reads and decides again).
   */
  public boolean save(CheckoutSession session) {
    Bson filter = Filters.and(Filters.eq("_id", session.id().toString()),
        Filters.eq("organisationId", session.details().organisationId().value()),
        Filters.eq("version", session.version()));
    List<Bson> changes = new ArrayList<>(List.of(
        Updates.set("status", session.status().name()),
        Updates.set("attempts", session.attempts().stream().map(CheckoutSessionStore::attempt).toList()),
        Updates.set("updatedAt", Date.from(session.updatedAt())),
        Updates.set("paidAt", session.paidAt() == null ? null : Date.from(session.paidAt())),
        Updates.inc("version", 1L)));
    if (!session.latePayments().isEmpty()) {
      // only sessions that have one carry the field: every other session keeps the shape it always had
      changes.add(Updates.set("latePayments",
          session.latePayments().stream().map(CheckoutSessionStore::latePayment).toList()));
    }
    Bson update = Updates.combine(changes);
    return outbox.update(session.id().toString(), filter, update, outboxEvents.toOutbox(session, session.events()));
  }

  /** A merchant's read: only the organisation's own sessions. */
  public Optional<CheckoutSession> find(OrganisationId organisationId, UUID id) {
    return records.find(organisationId, id.toString());
  }

  /** The hosted page's read: the unguessable reference is the only key. */
  public Optional<CheckoutSession> findByRef(String checkoutRef) {
    return Optional.ofNullable(collection.find(Filters.eq("checkoutRef", checkoutRef)).first())
        .map(CheckoutSessionStore::read);
  }

  /** The organisation's session created under this idempotency record key, with its request's fingerprint. */
  public Optional<Earlier<CheckoutSession>> findByIdempotencyKey(OrganisationId organisationId, String recordKey) {
    return records.byIdempotencyKey(organisationId, recordKey);
  }

  /** Open sessions whose lifetime ended before {@code cutoff}: candidates for the expiry job. */
  public List<CheckoutSession> dueBefore(Instant cutoff, int limit) {
    return collection.find(Filters.and(
            Filters.in("status", SessionStatus.PENDING.name(), SessionStatus.REQUIRES_CUSTOMER_ACTION.name(),
                SessionStatus.PROCESSING.name()),
            Filters.lte("expiresAt", Date.from(cutoff))))
        .limit(limit).map(CheckoutSessionStore::read).into(new ArrayList<>());
  }

  private static Document toDocument(CheckoutSession session) {
    CheckoutSession.Details d = session.details();
    return new Document("_id", d.id().toString())
        .append("organisationId", d.organisationId().value())
        .append("checkoutRef", d.checkoutRef())
        .append("amount", new Decimal128(d.amount()))
        .append("currency", d.currency())
        .append("description", d.description())
        .append("successUrl", d.successUrl())
        .append("cancelUrl", d.cancelUrl())
        .append("paymentMethods", d.paymentMethods().stream().map(Enum::name).toList())
        .append("externalReference", d.externalReference())
        .append("customerEmail", d.customerEmail())
        .append("customerPhone", d.customerPhone())
        .append("paymentReference", d.paymentReference())
        .append("callbackUrl", d.callbackUrl())
        .append("deviceId", d.deviceId())
        .append("createdAt", Date.from(d.createdAt()))
        .append("expiresAt", Date.from(d.expiresAt()))
        .append("status", session.status().name())
        .append("attempts", session.attempts().stream().map(CheckoutSessionStore::attempt).toList())
        .append("updatedAt", Date.from(session.updatedAt()))
        .append("paidAt", null)
        .append("version", session.version());
  }

  /** Only the brand and the last four digits of a card are ever written. */
  private static Document attempt(PaymentAttempt a) {
    return new Document("number", a.number())
        .append("method", a.method().name())
        .append("status", a.status().name())
        .append("cardBrand", a.cardBrand())
        .append("cardLast4", a.cardLast4())
        .append("phoneNumber", a.phoneNumber())
        .append("stkRequestId", text(a.stkRequestId()))
        .append("reason", a.reason())
        .append("createdAt", Date.from(a.createdAt()))
        .append("updatedAt", Date.from(a.updatedAt()));
  }

  private static Document latePayment(LatePayment p) {
    return new Document("attempt", p.attempt())
        .append("stkRequestId", p.stkRequestId().toString())
        .append("amount", new Decimal128(p.amount()))
        .append("receipt", p.receipt())
        .append("recordedAt", Date.from(p.recordedAt()));
  }

  private static LatePayment latePayment(Document p) {
    return new LatePayment(p.getInteger("attempt"), requestId(p.getString("stkRequestId")),
        p.get("amount", Decimal128.class).bigDecimalValue(), p.getString("receipt"),
        p.getDate("recordedAt").toInstant());
  }

  private static String text(RequestId requestId) {
    return requestId == null ? null : requestId.toString();
  }

  private static RequestId requestId(String text) {
    return text == null ? null : RequestId.of(UUID.fromString(text));
  }

  private static CheckoutSession read(Document d) {
    CheckoutSession.Details details = new CheckoutSession.Details(UUID.fromString(d.getString("_id")),
        OrganisationId.of(d.getString("organisationId")), d.getString("checkoutRef"),
        d.get("amount", Decimal128.class).bigDecimalValue(),
        d.getString("currency"), d.getString("description"), d.getString("successUrl"), d.getString("cancelUrl"),
        d.getList("paymentMethods", String.class).stream().map(PaymentMethod::valueOf).toList(),
        d.getString("externalReference"), d.getString("customerEmail"), d.getString("customerPhone"),
        d.getString("paymentReference"), d.getString("callbackUrl"), d.getString("deviceId"),
        d.getDate("createdAt").toInstant(), d.getDate("expiresAt").toInstant());
    List<PaymentAttempt> attempts = d.getList("attempts", Document.class, List.of()).stream()
        .map(a -> new PaymentAttempt(a.getInteger("number"), PaymentMethod.valueOf(a.getString("method")),
            PaymentAttempt.Status.valueOf(a.getString("status")), a.getString("cardBrand"), a.getString("cardLast4"),
            a.getString("phoneNumber"), requestId(a.getString("stkRequestId")), a.getString("reason"),
            a.getDate("createdAt").toInstant(), a.getDate("updatedAt").toInstant()))
        .toList();
    Date paidAt = d.getDate("paidAt");
    // sessions written before late payments existed have no such field
    List<LatePayment> latePayments = d.getList("latePayments", Document.class, List.of()).stream()
        .map(CheckoutSessionStore::latePayment).toList();
    return CheckoutSession.restore(details, d.get("version", Number.class).longValue(),
        SessionStatus.valueOf(d.getString("status")), attempts, d.getDate("updatedAt").toInstant(),
        paidAt == null ? null : paidAt.toInstant(), latePayments);
  }
}
