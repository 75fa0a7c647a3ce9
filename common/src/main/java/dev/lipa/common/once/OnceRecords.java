package dev.lipa.common.once;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.outbox.Outboxes;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The part every store of records a merchant request creates once shares (STK pushes, payouts, checkout sessions):
 * the collection with its own outbox, its {@link UniqueKeys} created at start-up, the stamped insert that says which
 * key refused it, and the organisation-scoped reads of one record: by id, by referenceId and by Idempotency-Key (the
 * last two with the fingerprint {@link CreateOnce} compares). Records are keyed by {@code _id} and carry their
 * organisation in {@value #ORGANISATION}; reads leave the outbox's fields out.
 *
 * @param <T> the record
 */
public final class OnceRecords<T> {

  /** The field that holds a record's organisation: every read here filters on it. */
  public static final String ORGANISATION = "organisationId";
  private static final String ID = "_id";

  private final MongoCollection<Document> collection;
  private final Outbox outbox;
  private final UniqueKeys keys;
  private final Function<Document, T> reader;

  /** Opens the collection {@code name} with its outbox and creates the unique indexes. */
  public OnceRecords(MongoDatabase database, Outboxes outboxes, String name, UniqueKeys keys,
      Function<Document, T> reader) {
    this.collection = database.getCollection(name);
    this.outbox = outboxes.of(collection);
    this.keys = keys;
    this.reader = reader;
    keys.createIndexes(collection);
  }

  public MongoCollection<Document> collection() {
    return collection;
  }

  public Outbox outbox() {
    return outbox;
  }

  /** A read's projection: the record without the outbox's fields. */
  public static Bson withoutOutbox() {
    return Projections.exclude(Outbox.EVENTS, Outbox.PENDING_SINCE);
  }

  /**
   * Stores a new record with its events in one insert, stamped with its origin; says which unique key refused it, if
   * one did (then nothing was written).
   */
  public Insert insert(Document document, Origin origin, List<OutboxEvent> events) {
    return keys.insert(outbox, document, origin, events);
  }

  /** Whether the organisation's record {@code id} is stored (asked after an insert failed: it may have been applied). */
  public boolean holds(OrganisationId organisationId, String id) {
    return collection.find(Filters.and(Filters.eq(ID, id), Filters.eq(ORGANISATION, organisationId.value())))
        .projection(Projections.include(ID)).first() != null;
  }

  /** The organisation's record {@code id}. */
  public Optional<T> find(OrganisationId organisationId, String id) {
    return Optional.ofNullable(collection.find(Filters.and(Filters.eq(ID, id),
            Filters.eq(ORGANISATION, organisationId.value())))
        .projection(withoutOutbox()).first()).map(reader);
  }

  /**
   * The organisation's record holding this reference key (the value of the reference index's field, which the
   * store composes from the organisation, the referenceId and whatever else scopes it), with its request's
   * fingerprint.
   */
  public Optional<Earlier<T>> byReference(OrganisationId organisationId, String referenceKey) {
    return earlier(organisationId, keys.reference().field(), referenceKey);
  }

  /** The organisation's record created under this idempotency record key, with its request's fingerprint. */
  public Optional<Earlier<T>> byIdempotencyKey(OrganisationId organisationId, String recordKey) {
    return earlier(organisationId, keys.key().field(), recordKey);
  }

  private Optional<Earlier<T>> earlier(OrganisationId organisationId, String field, String value) {
    return Optional.ofNullable(collection.find(Filters.and(Filters.eq(field, value),
            Filters.eq(ORGANISATION, organisationId.value()))).projection(withoutOutbox()).first())
        .map(document -> UniqueKeys.earlier(document, reader));
  }
}
