package dev.lipa.payouts.ledger;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.PushOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import com.mongodb.client.result.UpdateResult;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Decimal128;
import org.springframework.stereotype.Component;

/**
 * The ledger's two collections: {@value #ACCOUNTS}, one document per (organisation, currency) holding the balance,
 * and {@value #ENTRIES}, the append-only journal of movements ({@code _id} = {@link Movement#id()}, so an entry is
 * unique per request and kind, and entries are never updated).
 *
 * <p><b>One movement is one atomic update of one account document</b> (the store has no multi-document
 * transactions). The guarded {@code findOneAndUpdate} at once
 * <ul>
 *   <li>proves the movement was not applied yet: its id is neither among the account's {@code recent} movement ids
 *       (the last {@value #RECENT}, kept with {@code $push $slice}) nor among its {@code pending} entries;</li>
 *   <li>proves the movement is allowed: {@code available >= amount} for a reservation or a transfer out; for a
 *       settlement or a release, the reservation's hold ({@code holds.requestId}) exists, so a reservation is
 *       settled or released exactly once, however late a duplicate arrives, and a reservation is refused while its
 *       hold exists;</li>
 *   <li>changes {@code available} and {@code reserved} ({@code $inc} on Decimal128, exact) and appends the movement's
 *       immutable entry to the account's {@code pending} array (an outbox of entries).</li>
 * </ul>
 * Then the pending entries are copied to {@value #ENTRIES} (one unordered {@code insertMany}; a duplicate key means
 * "copied already") and removed from the account: one guarded update empties {@code pending} and unsets
 * {@code pendingSince} when the array still holds exactly the copied entries ({@code $size} and {@code $all} of their
 * ids); when other entries arrived meanwhile, only the copied ones are {@code $pull}ed and {@code pendingSince} is
 * unset by a second update guarded on an empty array.
 *
 * <p><b>Many credits of one account are one atomic update too</b> ({@link #applyAll}, used for the credits a Kafka
 * batch brings): movements that need no guard but "not applied yet" and only add to {@code available} (credits,
 * top-ups, transfers in) are applied together by one {@code findOneAndUpdate} whose filter proves that none of their
 * ids is in {@code recent} or {@code pending} ({@code $nin}), and whose update {@code $inc}s available by their exact
 * sum and pushes every entry to {@code pending} and every id to {@code recent}. It is all or nothing: when any id was
 * applied before the update changes nothing, and {@link Ledger} applies that group one movement at a time, so each
 * repeat is refused on its own. The pending entries are then copied as above, so a group of n credits costs the same
 * four statements as one credit (journal check, account update, {@code insertMany}, clear).
 *
 * <p><b>Invariant</b>: for every account, {@code available} and {@code reserved} equal the sums of the changes of
 * its entries in {@value #ENTRIES} plus those still in its {@code pending} array; and no entry is in neither. It holds
 * after every single write: the update that changes the balance adds the entries to {@code pending} (the group
 * update adds exactly the entries whose sum it adds); copying adds entries to the journal that are still pending
 * (counted once: readers of the journal take the union by {@code _id}); the clear and the pull remove only entries
 * the journal holds.
 *
 * <p><b>Crash windows</b>: after the account update, before the copy: the entries wait in {@code pending} and
 * {@link Ledger}'s repair job copies them later (the balance is already right; the journal catches up). After the
 * copy (or part of it), before the clear: the repair copies again (duplicate keys, ignored) and clears. A movement
 * retried after a crash hits the {@code recent}/{@code pending} guard or, when it is older than the window,
 * {@link Ledger} finds its entry in the journal before trying (movements that can come back late, credits and
 * transfers, are checked there first; a group's credits with one {@code _id $in} query, {@link #journalHolds}).
 * A group larger than the window pushes only its last {@value #RECENT} ids to {@code recent}; the others are
 * guarded by {@code pending} until copied and by the journal check after.
 */
@Component
public class LedgerStore {

  public static final String ACCOUNTS = "ledger_accounts";
  public static final String ENTRIES = "ledger_entries";
  /** Movement ids kept per account to refuse a repeated movement without reading the journal. */
  static final int RECENT = 256;

  private static final String ID = "_id";
  private static final String ORGANISATION = "organisationId";
  private static final String CURRENCY = "currency";
  private static final String AVAILABLE = "available";
  private static final String RESERVED = "reserved";
  private static final String HOLDS = "holds";
  private static final String RECENT_IDS = "recent";
  private static final String PENDING = "pending";
  private static final String PENDING_SINCE = "pendingSince";
  private static final String REQUEST_ID = "requestId";

  /** How an attempt to apply a movement ended. */
  enum Outcome {
    APPLIED,
    /** Applied before (its id is recent or pending). */
    DUPLICATE,
    /** The guard refused it: available does not cover it, or the hold to settle or release is gone. */
    REFUSED,
    /** The account does not exist yet. */
    NO_ACCOUNT,
    /**
     * The update matched nothing, yet the account read right after explains no refusal: it changed between the two
     * statements (another writer opened it, or freed what the guard needed). Nothing was applied; try again.
     */
    CHANGED
  }

  private final MongoCollection<Document> accounts;
  private final MongoCollection<Document> entries;

  public LedgerStore(MongoDatabase database) {
    this.accounts = database.getCollection(ACCOUNTS);
    this.entries = database.getCollection(ENTRIES);
    // the embedded store ignores non-unique indexes; a real MongoDB serves the repair jobs and reads from these
    accounts.createIndex(Indexes.ascending(ORGANISATION), new IndexOptions().name("ledger_account_organisation"));
    accounts.createIndex(Indexes.ascending(PENDING_SINCE),
        new IndexOptions().name("ledger_account_pending").sparse(true));
    accounts.createIndex(Indexes.ascending(HOLDS + ".at"), new IndexOptions().name("ledger_account_holds"));
    entries.createIndex(Indexes.ascending(ORGANISATION, CURRENCY, "at"),
        new IndexOptions().name("ledger_entry_account"));
  }

  static String accountId(String organisationId, Currency currency) {
    return organisationId + ":" + currency.name();
  }

  /** Applies the movement in one guarded update (see the class comment) and copies the account's pending entries. */
  Outcome apply(Movement movement, Instant now) {
    String id = movement.id();
    Decimal128 amount = new Decimal128(movement.amount());
    MovementKind kind = movement.kind();
    List<Bson> filter = new ArrayList<>(List.of(Filters.eq(ID, movement.accountId()),
        Filters.ne(RECENT_IDS, id), Filters.ne(PENDING + "." + ID, id)));
    List<Bson> changes = new ArrayList<>();
    switch (kind.guard()) {
      case AVAILABLE_COVERS -> filter.add(Filters.gte(AVAILABLE, amount));
      case HOLD_EXISTS -> filter.add(Filters.eq(HOLDS + "." + REQUEST_ID, movement.requestId()));
      case NONE -> { }
    }
    if (kind == MovementKind.RESERVE) {
      filter.add(Filters.ne(HOLDS + "." + REQUEST_ID, movement.requestId()));
      changes.add(Updates.push(HOLDS, new Document(REQUEST_ID, movement.requestId()).append("amount", amount)
          .append("at", Date.from(now))));
    } else if (kind.guard() == MovementKind.Guard.HOLD_EXISTS) {
      changes.add(Updates.pull(HOLDS, new Document(REQUEST_ID, movement.requestId())));
    }
    if (kind.availableSign() != 0) {
      changes.add(Updates.inc(AVAILABLE, signed(movement.amount(), kind.availableSign())));
    }
    if (kind.reservedSign() != 0) {
      changes.add(Updates.inc(RESERVED, signed(movement.amount(), kind.reservedSign())));
    }
    changes.add(Updates.pushEach(RECENT_IDS, List.of(id), new PushOptions().slice(-RECENT)));
    changes.add(Updates.push(PENDING, entry(movement, now)));
    changes.add(Updates.min(PENDING_SINCE, Date.from(now)));
    changes.add(Updates.set("updatedAt", Date.from(now)));
    Document after = accounts.findOneAndUpdate(Filters.and(filter), Updates.combine(changes),
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
    if (after != null) {
      copyPending(after);
      return Outcome.APPLIED;
    }
    // the update matched nothing: say why from the account as it is now, never by elimination (an account another
    // writer opened between the two statements would otherwise read as a refusal, and a credit would be dropped)
    Document account = accounts.find(Filters.eq(ID, movement.accountId())).first();
    if (account == null) {
      return Outcome.NO_ACCOUNT;
    }
    if (appliedIn(account, List.of(id))) {
      return Outcome.DUPLICATE;
    }
    List<Document> holds = account.getList(HOLDS, Document.class, List.of());
    boolean held = holds.stream().anyMatch(h -> movement.requestId().equals(h.getString(REQUEST_ID)));
    if (kind == MovementKind.RESERVE && held) {
      return Outcome.DUPLICATE; // reserved before, its id since pushed out of the recent window
    }
    boolean refused = switch (kind.guard()) {
      case AVAILABLE_COVERS -> decimal(account.get(AVAILABLE)).compareTo(movement.amount()) < 0;
      case HOLD_EXISTS -> !held;
      case NONE -> false;
    };
    return refused ? Outcome.REFUSED : Outcome.CHANGED;
  }

  /** Whether any of these movement ids is among the account's recent ids or its pending entries. */
  private static boolean appliedIn(Document account, Collection<String> ids) {
    return account.getList(RECENT_IDS, String.class, List.of()).stream().anyMatch(ids::contains)
        || account.getList(PENDING, Document.class, List.of()).stream().anyMatch(e -> ids.contains(e.getString(ID)));
  }

  /**
   * Applies movements of one account together in one guarded update (see the class comment): all of them or none.
   * They must be of one account, have distinct ids, and be of kinds that only add to available with no guard but
   * "not applied yet" ({@link #batchable}). {@link Outcome#DUPLICATE} means at least one of them was applied before
   * (none is applied now); {@link Outcome#NO_ACCOUNT} that the account does not exist yet; {@link Outcome#CHANGED}
   * that the account changed in between (none is applied; try again).
   */
  Outcome applyAll(List<Movement> movements, Instant now) {
    if (movements.isEmpty()) {
      return Outcome.APPLIED;
    }
    String accountId = movements.getFirst().accountId();
    List<String> ids = new ArrayList<>(movements.size());
    List<Document> added = new ArrayList<>(movements.size());
    BigDecimal sum = BigDecimal.ZERO;
    for (Movement movement : movements) {
      if (!batchable(movement.kind()) || !movement.accountId().equals(accountId)) {
        throw new IllegalArgumentException("not a movement of a group: " + movement);
      }
      ids.add(movement.id());
      added.add(entry(movement, now));
      sum = sum.add(movement.amount());
    }
    if (new HashSet<>(ids).size() != ids.size()) {
      throw new IllegalArgumentException("a group applies each movement once");
    }
    Bson filter = Filters.and(Filters.eq(ID, accountId), Filters.nin(RECENT_IDS, ids),
        Filters.nin(PENDING + "." + ID, ids));
    Bson changes = Updates.combine(
        Updates.inc(AVAILABLE, new Decimal128(sum)),
        Updates.pushEach(RECENT_IDS, ids.size() > RECENT ? ids.subList(ids.size() - RECENT, ids.size()) : ids,
            new PushOptions().slice(-RECENT)),
        Updates.pushEach(PENDING, added),
        Updates.min(PENDING_SINCE, Date.from(now)),
        Updates.set("updatedAt", Date.from(now)));
    Document after = accounts.findOneAndUpdate(filter, changes,
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
    if (after != null) {
      copyPending(after);
      return Outcome.APPLIED;
    }
    Document account = accounts.find(Filters.eq(ID, accountId))
        .projection(Projections.include(RECENT_IDS, PENDING + "." + ID)).first();
    if (account == null) {
      return Outcome.NO_ACCOUNT;
    }
    return appliedIn(account, new HashSet<>(ids)) ? Outcome.DUPLICATE : Outcome.CHANGED;
  }

  /** Whether movements of this kind can be applied together by {@link #applyAll}. */
  static boolean batchable(MovementKind kind) {
    return kind.guard() == MovementKind.Guard.NONE && kind.availableSign() > 0 && kind.reservedSign() == 0;
  }

  /** Whether the store can hold this amount exactly (Decimal128: at most 34 significant digits). */
  static boolean storable(BigDecimal amount) {
    try {
      new Decimal128(amount);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * Creates the account with its opening float (an {@link MovementKind#OPENING} entry when the float is above 0).
   * Creating it twice is harmless: the second insert meets the unique {@code _id} and changes nothing.
   */
  void open(String organisationId, Currency currency, BigDecimal openingFloat, Instant now) {
    Document account = new Document(ID, accountId(organisationId, currency))
        .append(ORGANISATION, organisationId)
        .append(CURRENCY, currency.name())
        .append(AVAILABLE, new Decimal128(openingFloat))
        .append(RESERVED, new Decimal128(BigDecimal.ZERO))
        .append(HOLDS, new ArrayList<>())
        .append("createdAt", Date.from(now))
        .append("updatedAt", Date.from(now));
    if (openingFloat.signum() > 0) {
      Movement opening = new Movement(organisationId, currency, MovementKind.OPENING,
          accountId(organisationId, currency), openingFloat);
      account.append(RECENT_IDS, new ArrayList<>(List.of(opening.id())))
          .append(PENDING, new ArrayList<>(List.of(entry(opening, now))))
          .append(PENDING_SINCE, Date.from(now));
    } else {
      account.append(RECENT_IDS, new ArrayList<>()).append(PENDING, new ArrayList<>());
    }
    try {
      accounts.insertOne(account);
      copyPending(account);
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
        throw e;
      }
    }
  }

  Optional<Balance> balance(String organisationId, Currency currency) {
    return Optional.ofNullable(accounts.find(Filters.and(Filters.eq(ID, accountId(organisationId, currency)),
            Filters.eq(ORGANISATION, organisationId))).projection(Projections.include(CURRENCY, AVAILABLE, RESERVED))
        .first()).map(LedgerStore::toBalance);
  }

  List<Balance> balances(String organisationId) {
    return accounts.find(Filters.eq(ORGANISATION, organisationId))
        .projection(Projections.include(CURRENCY, AVAILABLE, RESERVED))
        .map(LedgerStore::toBalance).into(new ArrayList<>());
  }

  /** Whether the journal holds this movement's entry already (copied from an account's pending array). */
  boolean journalHas(Movement movement) {
    return entries.find(Filters.eq(ID, movement.id())).projection(Projections.include(ID)).first() != null;
  }

  /** Which of these movement ids the journal holds already, in one query on {@code _id}. */
  Set<String> journalHolds(Collection<String> ids) {
    if (ids.isEmpty()) {
      return Set.of();
    }
    return entries.find(Filters.in(ID, ids)).projection(Projections.include(ID)).map(d -> d.getString(ID))
        .into(new HashSet<>());
  }

  /** The account's entries, oldest first: the journal's and those still pending, each once. */
  public List<LedgerEntry> entries(String organisationId, Currency currency) {
    List<LedgerEntry> journal = entries.find(Filters.and(Filters.eq(ORGANISATION, organisationId),
            Filters.eq(CURRENCY, currency.name())))
        .sort(Sorts.ascending("at", ID)).map(LedgerStore::toEntry).into(new ArrayList<>());
    Document account = accounts.find(Filters.eq(ID, accountId(organisationId, currency))).first();
    if (account != null) {
      List<String> ids = journal.stream().map(LedgerEntry::id).toList();
      account.getList(PENDING, Document.class, List.of()).stream().map(LedgerStore::toEntry)
          .filter(e -> !ids.contains(e.id())).forEach(journal::add);
    }
    return journal;
  }

  /** Copies the pending entries of accounts whose oldest pending entry is older than the cut-off. */
  int copyStalePending(Instant cutoff, int limit) {
    List<Document> stale = accounts.find(Filters.lt(PENDING_SINCE, Date.from(cutoff)))
        .projection(Projections.include(ID, PENDING)).limit(limit).into(new ArrayList<>());
    stale.forEach(this::copyPending);
    return stale.size();
  }

  /** Reservations made before the cut-off, of every organisation (a system job, not scoped by organisation). */
  List<Hold> holdsOlderThan(Instant cutoff, int limit) {
    List<Hold> holds = new ArrayList<>();
    accounts.find(Filters.lt(HOLDS + ".at", Date.from(cutoff))).projection(Projections.include(ORGANISATION,
        CURRENCY, HOLDS)).limit(limit).forEach(account -> account.getList(HOLDS, Document.class, List.of()).stream()
            .filter(h -> h.getDate("at").toInstant().isBefore(cutoff))
            .forEach(h -> holds.add(new Hold(account.getString(ORGANISATION),
                Currency.valueOf(account.getString(CURRENCY)), h.getString(REQUEST_ID), decimal(h.get("amount"))))));
    return holds;
  }

  private void copyPending(Document account) {
    List<Document> pending = account.getList(PENDING, Document.class, List.of());
    if (pending.isEmpty()) {
      return;
    }
    List<String> ids = new ArrayList<>(pending.size());
    List<Document> copies = new ArrayList<>(pending.size());
    for (Document entry : pending) {
      ids.add(entry.getString(ID));
      copies.add(new Document(entry));
    }
    try {
      // unordered: an entry copied before (a crash, a concurrent copier) must not stop the others
      entries.insertMany(copies, new InsertManyOptions().ordered(false));
    } catch (MongoBulkWriteException e) {
      boolean onlyCopiedAlready = e.getWriteConcernError() == null && e.getWriteErrors().stream()
          .map(BulkWriteError::getCategory).allMatch(ErrorCategory.DUPLICATE_KEY::equals);
      if (!onlyCopiedAlready) {
        throw e;
      }
    }
    Object accountId = account.get(ID);
    // the usual case: nothing arrived since the account was read, so one update empties the outbox
    UpdateResult cleared = accounts.updateOne(Filters.and(Filters.eq(ID, accountId),
            Filters.size(PENDING, ids.size()), Filters.all(PENDING + "." + ID, ids)),
        Updates.combine(Updates.set(PENDING, List.of()), Updates.unset(PENDING_SINCE)));
    if (cleared.getMatchedCount() > 0) {
      return;
    }
    accounts.updateOne(Filters.eq(ID, accountId),
        new Document("$pull", new Document(PENDING, new Document(ID, new Document("$in", ids)))));
    accounts.updateOne(Filters.and(Filters.eq(ID, accountId), Filters.size(PENDING, 0)),
        Updates.unset(PENDING_SINCE));
  }

  private static Document entry(Movement movement, Instant now) {
    MovementKind kind = movement.kind();
    return new Document(ID, movement.id())
        .append(ORGANISATION, movement.organisationId())
        .append(CURRENCY, movement.currency().name())
        .append("kind", kind.name())
        .append(REQUEST_ID, movement.requestId())
        .append("amount", new Decimal128(movement.amount()))
        .append("availableChange", signed(movement.amount(), kind.availableSign()))
        .append("reservedChange", signed(movement.amount(), kind.reservedSign()))
        .append("at", Date.from(now));
  }

  private static Decimal128 signed(BigDecimal amount, int sign) {
    return new Decimal128(sign == 0 ? BigDecimal.ZERO : sign > 0 ? amount : amount.negate());
  }

  private static Balance toBalance(Document d) {
    return new Balance(Currency.valueOf(d.getString(CURRENCY)), decimal(d.get(AVAILABLE)), decimal(d.get(RESERVED)));
  }

  private static LedgerEntry toEntry(Document d) {
    return new LedgerEntry(d.getString(ID), d.getString(ORGANISATION), Currency.valueOf(d.getString(CURRENCY)),
        MovementKind.valueOf(d.getString("kind")), d.getString(REQUEST_ID), decimal(d.get("amount")),
        decimal(d.get("availableChange")), decimal(d.get("reservedChange")), d.getDate("at").toInstant());
  }

  static BigDecimal decimal(Object stored) {
    BigDecimal value = stored instanceof Decimal128 d ? d.bigDecimalValue() : new BigDecimal(stored.toString());
    // Decimal128 keeps the scale of what was added ("0E-6176" for a zero sum): show plain whole-or-decimal values
    return value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros().scale() < 0
        ? value.setScale(0) : value.stripTrailingZeros();
  }

  /** A reservation as the account holds it. */
  record Hold(String organisationId, Currency currency, String requestId, BigDecimal amount) {
  }
}
