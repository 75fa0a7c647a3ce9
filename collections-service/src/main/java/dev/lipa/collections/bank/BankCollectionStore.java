package dev.lipa.collections.bank;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.Outboxes;
import java.math.BigDecimal;
import java.time.LocalDate;
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
 * Bank collections in {@value #COLLECTION}, one document per collection keyed by its uuid, carrying its own outbox.
 * A unique {@code transactionKey} stores a repeated transactionref once; a unique {@code id} backs the numeric ids.
 * Every merchant-facing query filters on the organisation.
 */
@Component
public class BankCollectionStore {

  public static final String COLLECTION = "bank_collections";
  static final String ID_INDEX = "bank_id_unique";
  static final String TRANSACTION_INDEX = "bank_transaction_unique";

  private static final String ID = "_id";
  private static final String ORGANISATION = "organisationId";
  private static final String CREATED_AT = "createdAt";
  private static final String TRANSACTION_KEY = "transactionKey";

  private final MongoCollection<Document> collection;
  private final Outbox outbox;
  private final BankOutboxEvents events;

  public BankCollectionStore(MongoDatabase database, Outboxes outboxes, BankOutboxEvents events) {
    this.collection = database.getCollection(COLLECTION);
    this.outbox = outboxes.of(collection);
    this.events = events;
    collection.createIndex(Indexes.ascending("id"), new IndexOptions().name(ID_INDEX).unique(true));
    collection.createIndex(Indexes.ascending(TRANSACTION_KEY),
        new IndexOptions().name(TRANSACTION_INDEX).unique(true));
    // ignored by the embedded store; a real MongoDB uses it for the list
    collection.createIndex(Indexes.compoundIndex(Indexes.ascending(ORGANISATION), Indexes.descending(CREATED_AT)),
        new IndexOptions().name("bank_organisation_created"));
  }

  /**
   * Stores a new collection with its events: one insert.
   *
   * @throws DuplicateTransactionException when the transactionref is stored already (the caller answers with it)
   * @throws DuplicateIdException when another replica minted the same numeric id
   */
  void insert(BankCollection collection) {
    try {
      outbox.insert(toDocument(collection), events.of(collection));
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
        throw e;
      }
      String message = String.valueOf(e.getError().getMessage());
      if (message.contains(TRANSACTION_INDEX) || message.contains(TRANSACTION_KEY)) {
        throw new DuplicateTransactionException();
      }
      if (message.contains(ID_INDEX)) {
        throw new DuplicateIdException();
      }
      throw e;
    }
  }

  /** The collection stored for this transactionref of this source (see {@link BankCollection#transactionKey()}). */
  Optional<BankCollection> findByTransaction(String transactionKey) {
    return Optional.ofNullable(collection.find(Filters.eq(TRANSACTION_KEY, transactionKey))
        .projection(withoutOutbox()).first()).map(BankCollectionStore::toCollection);
  }

  Optional<BankCollection> find(OrganisationId organisationId, UUID uuid) {
    return Optional.ofNullable(collection.find(Filters.and(Filters.eq(ID, uuid.toString()),
        Filters.eq(ORGANISATION, organisationId.value()))).projection(withoutOutbox()).first())
        .map(BankCollectionStore::toCollection);
  }

  /** The organisation's collections in the query's window, newest first. */
  List<BankCollection> list(OrganisationId organisationId, BankListQuery query) {
    List<Bson> filters = new ArrayList<>(List.of(Filters.eq(ORGANISATION, organisationId.value())));
    if (query.createdFrom() != null) {
      filters.add(Filters.gte(CREATED_AT, Date.from(query.createdFrom())));
    }
    if (query.createdBefore() != null) {
      filters.add(Filters.lt(CREATED_AT, Date.from(query.createdBefore())));
    }
    return collection.find(Filters.and(filters))
        .projection(withoutOutbox())
        .sort(Sorts.descending(CREATED_AT, "id"))
        .skip(query.page() * query.size())
        .limit(query.size())
        .map(BankCollectionStore::toCollection)
        .into(new ArrayList<>());
  }

  private static Bson withoutOutbox() {
    return Projections.exclude(Outbox.EVENTS, Outbox.PENDING_SINCE);
  }

  static Document toDocument(BankCollection c) {
    return new Document(ID, c.uuid().toString())
        .append("id", c.id())
        .append(ORGANISATION, c.organisationId().value())
        .append("source", c.source())
        .append(TRANSACTION_KEY, c.transactionKey())
        .append("customerid", c.customerid())
        .append("transactionref", c.transactionref())
        .append("paymentmode", c.paymentmode())
        .append("transactiondate", c.transactiondate().toString())
        .append("accountnumber", c.accountnumber())
        .append("amount", new Decimal128(c.amount()))
        .append("description", c.description())
        .append("callbackUrl", c.callbackUrl())
        .append("callbackId", c.callbackId() == null ? null : c.callbackId().toString())
        .append(CREATED_AT, Date.from(c.createdAt()))
        .append("updatedAt", Date.from(c.updatedAt()));
  }

  static BankCollection toCollection(Document d) {
    String callbackId = d.getString("callbackId");
    Object amount = d.get("amount");
    return new BankCollection(
        d.get("id", Number.class).longValue(),
        UUID.fromString(d.getString(ID)),
        OrganisationId.of(d.getString(ORGANISATION)),
        d.getString("source"),
        d.getString("customerid"),
        d.getString("transactionref"),
        d.getString("paymentmode"),
        LocalDate.parse(d.getString("transactiondate")),
        d.getString("accountnumber"),
        amount instanceof Decimal128 decimal ? decimal.bigDecimalValue() : new BigDecimal(amount.toString()),
        d.getString("description"),
        d.getString("callbackUrl"),
        callbackId == null ? null : UUID.fromString(callbackId),
        d.getDate(CREATED_AT).toInstant(),
        d.getDate("updatedAt").toInstant());
  }

  /** The transactionref of this source is stored already. */
  static final class DuplicateTransactionException extends RuntimeException {

    DuplicateTransactionException() {
      super("transactionref already stored", null, false, false);
    }
  }

  /** Another replica minted the same numeric id (rare); the caller retries with a fresh one. */
  static final class DuplicateIdException extends RuntimeException {

    DuplicateIdException() {
      super("numeric id taken", null, false, false);
    }
  }
}
