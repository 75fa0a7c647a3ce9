package dev.lipa.payouts.ledger;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bson.Document;
import org.bson.types.Decimal128;

/**
 * The journal, {@value #COLLECTION}: the append-only entries of every movement ({@code _id} = {@link Movement#id()},
 * so an entry is unique per request and kind, and entries are never updated). Also the shape of an entry, which an
 * account's {@code pending} array holds the same way until it is copied here.
 */
final class LedgerJournal {

  static final String COLLECTION = "ledger_entries";

  static final String ID = "_id";
  static final String ORGANISATION = "organisationId";
  static final String CURRENCY = "currency";
  static final String REQUEST_ID = "requestId";

  private final MongoCollection<Document> entries;

  LedgerJournal(MongoDatabase database) {
    this.entries = database.getCollection(COLLECTION);
    // the embedded store ignores non-unique indexes; a real MongoDB serves the account's reads from this
    entries.createIndex(Indexes.ascending(ORGANISATION, CURRENCY, "at"),
        new IndexOptions().name("ledger_entry_account"));
  }

  /**
   * Appends copies of an account's pending entries with one unordered insert: an entry copied before (a crash, a
   * concurrent copier) is a duplicate key, which means "copied already" and stops none of the others.
   */
  void append(List<Document> pending) {
    List<Document> copies = pending.stream().map(Document::new).toList();
    try {
      entries.insertMany(copies, new InsertManyOptions().ordered(false));
    } catch (MongoBulkWriteException e) {
      boolean onlyCopiedAlready = e.getWriteConcernError() == null && e.getWriteErrors().stream()
          .map(BulkWriteError::getCategory).allMatch(ErrorCategory.DUPLICATE_KEY::equals);
      if (!onlyCopiedAlready) {
        throw e;
      }
    }
  }

  /** Whether the journal holds this movement's entry already. */
  boolean has(Movement movement) {
    return entries.find(Filters.eq(ID, movement.id())).projection(Projections.include(ID)).first() != null;
  }

  /** Which of these movement ids the journal holds already, in one query on {@code _id}. */
  Set<String> holding(Collection<String> ids) {
    if (ids.isEmpty()) {
      return Set.of();
    }
    return entries.find(Filters.in(ID, ids)).projection(Projections.include(ID)).map(d -> d.getString(ID))
        .into(new HashSet<>());
  }

  /** The account's entries in the journal, oldest first. */
  List<LedgerEntry> of(OrganisationId organisationId, Currency currency) {
    return entries.find(Filters.and(Filters.eq(ORGANISATION, organisationId.value()),
            Filters.eq(CURRENCY, currency.name())))
        .sort(Sorts.ascending("at", ID)).map(LedgerJournal::toEntry).into(new ArrayList<>());
  }

  /** The entry of a movement, as the journal and an account's pending array hold it. */
  static Document entry(Movement movement, Instant now) {
    MovementKind kind = movement.kind();
    return new Document(ID, movement.id())
        .append(ORGANISATION, movement.organisationId().value())
        .append(CURRENCY, movement.currency().name())
        .append("kind", kind.name())
        .append(REQUEST_ID, movement.requestId())
        .append("amount", new Decimal128(movement.amount()))
        .append("availableChange", signed(movement.amount(), kind.availableSign()))
        .append("reservedChange", signed(movement.amount(), kind.reservedSign()))
        .append("at", Date.from(now));
  }

  static LedgerEntry toEntry(Document d) {
    return new LedgerEntry(d.getString(ID), OrganisationId.of(d.getString(ORGANISATION)),
        Currency.valueOf(d.getString(CURRENCY)), MovementKind.valueOf(d.getString("kind")), d.getString(REQUEST_ID),
        decimal(d.get("amount")), decimal(d.get("availableChange")), decimal(d.get("reservedChange")),
        d.getDate("at").toInstant());
  }

  static Decimal128 signed(BigDecimal amount, int sign) {
    return new Decimal128(sign == 0 ? BigDecimal.ZERO : sign > 0 ? amount : amount.negate());
  }

  static BigDecimal decimal(Object stored) {
    BigDecimal value = stored instanceof Decimal128 d ? d.bigDecimalValue() : new BigDecimal(stored.toString());
    // Decimal128 keeps the scale of what was added ("0E-6176" for a zero sum): show plain whole-or-decimal values
    return value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros().scale() < 0
        ? value.setScale(0) : value.stripTrailingZeros();
  }
}
