package dev.lipa.payouts.ledger;

import static dev.lipa.payouts.ledger.LedgerJournal.CURRENCY;
import static dev.lipa.payouts.ledger.LedgerJournal.ID;
import static dev.lipa.payouts.ledger.LedgerJournal.ORGANISATION;
import static dev.lipa.payouts.ledger.LedgerJournal.REQUEST_ID;
import static dev.lipa.payouts.ledger.LedgerJournal.decimal;
import static dev.lipa.payouts.ledger.LedgerJournal.signed;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.PushOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.ledger.LedgerRules.Condition;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Decimal128;

/**
 * The accounts, {@value #COLLECTION}: one document per (organisation, currency) holding the balance, the reservations'
 * holds, the recent movement ids and the {@code pending} entries not yet copied to the journal. Every movement is one
 * <b>atomic conditional update</b> of one account ({@link #applyGuarded}): {@link LedgerRules}' conditions as its
 * filter, the movement's change and its pending entry as its update.
 */
final class LedgerAccounts {

  static final String COLLECTION = "ledger_accounts";
  /** Movement ids kept per account to refuse a repeated movement without reading the journal. */
  static final int RECENT = 256;

  static final String AVAILABLE = "available";
  static final String RESERVED = "reserved";
  static final String HOLDS = "holds";
  static final String RECENT_IDS = "recent";
  static final String PENDING = "pending";
  static final String PENDING_SINCE = "pendingSince";

  private final MongoCollection<Document> accounts;

  LedgerAccounts(MongoDatabase database) {
    this.accounts = database.getCollection(COLLECTION);
    // the embedded store ignores non-unique indexes; a real MongoDB serves the repair jobs and reads from these
    accounts.createIndex(Indexes.ascending(ORGANISATION), new IndexOptions().name("ledger_account_organisation"));
    accounts.createIndex(Indexes.ascending(PENDING_SINCE),
        new IndexOptions().name("ledger_account_pending").sparse(true));
    accounts.createIndex(Indexes.ascending(HOLDS + ".at"), new IndexOptions().name("ledger_account_holds"));
  }

  static String accountId(OrganisationId organisationId, Currency currency) {
    return organisationId.value() + ":" + currency.name();
  }

  /**
   * Applies one movement in one atomic conditional update: when the account meets the movement's conditions, its
   * balance changes, its hold is taken or given back, its id joins the recent window and its entry the pending array.
   * Returns the account after the update, or empty when it did not match (nothing changed).
   */
  Optional<Document> applyGuarded(Movement movement, Instant now) {
    MovementKind kind = movement.kind();
    List<Bson> changes = new ArrayList<>();
    if (kind == MovementKind.RESERVE) {
      changes.add(Updates.push(HOLDS, new Document(REQUEST_ID, movement.requestId())
          .append("amount", new Decimal128(movement.amount())).append("at", Date.from(now))));
    } else if (kind.guard() == MovementKind.Guard.HOLD_EXISTS) {
      changes.add(Updates.pull(HOLDS, new Document(REQUEST_ID, movement.requestId())));
    }
    if (kind.availableSign() != 0) {
      changes.add(Updates.inc(AVAILABLE, signed(movement.amount(), kind.availableSign())));
    }
    if (kind.reservedSign() != 0) {
      changes.add(Updates.inc(RESERVED, signed(movement.amount(), kind.reservedSign())));
    }
    changes.add(Updates.pushEach(RECENT_IDS, List.of(movement.id()), new PushOptions().slice(-RECENT)));
    changes.add(Updates.push(PENDING, LedgerJournal.entry(movement, now)));
    changes.add(Updates.min(PENDING_SINCE, Date.from(now)));
    changes.add(Updates.set("updatedAt", Date.from(now)));
    return update(movement.accountId(), LedgerRules.conditions(movement), Updates.combine(changes));
  }

  /**
   * Applies credits of one account (distinct ids, {@link LedgerRules#batchable} kinds) in one atomic conditional
   * update: none of them applied before, and then available grows by their exact sum and every entry is pending.
   * All of them or none; empty when the update did not match.
   */
  Optional<Document> applyGroupGuarded(String accountId, List<Movement> movements, Instant now) {
    List<String> ids = movements.stream().map(Movement::id).toList();
    BigDecimal sum = movements.stream().map(Movement::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    Bson changes = Updates.combine(
        Updates.inc(AVAILABLE, new Decimal128(sum)),
        Updates.pushEach(RECENT_IDS, ids.size() > RECENT ? ids.subList(ids.size() - RECENT, ids.size()) : ids,
            new PushOptions().slice(-RECENT)),
        Updates.pushEach(PENDING, movements.stream().map(m -> LedgerJournal.entry(m, now)).toList()),
        Updates.min(PENDING_SINCE, Date.from(now)),
        Updates.set("updatedAt", Date.from(now)));
    return update(accountId, List.of(new Condition.NotApplied(ids)), changes);
  }

  private Optional<Document> update(String accountId, List<Condition> conditions, Bson changes) {
    List<Bson> filter = new ArrayList<>(List.of(Filters.eq(ID, accountId)));
    conditions.forEach(condition -> filter.addAll(toFilters(condition)));
    return Optional.ofNullable(accounts.findOneAndUpdate(Filters.and(filter), changes,
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER)));
  }

  /** A rule as the store checks it, inside the update. */
  private static List<Bson> toFilters(Condition condition) {
    return switch (condition) {
      case Condition.NotApplied(var ids) when ids.size() == 1 ->
          List.of(Filters.ne(RECENT_IDS, ids.getFirst()), Filters.ne(PENDING + "." + ID, ids.getFirst()));
      case Condition.NotApplied(var ids) -> List.of(Filters.nin(RECENT_IDS, ids), Filters.nin(PENDING + "." + ID, ids));
      case Condition.AvailableCovers(var amount) -> List.of(Filters.gte(AVAILABLE, new Decimal128(amount)));
      case Condition.HoldExists(var requestId) -> List.of(Filters.eq(HOLDS + "." + REQUEST_ID, requestId));
      case Condition.NoHold(var requestId) -> List.of(Filters.ne(HOLDS + "." + REQUEST_ID, requestId));
    };
  }

  /** The account as it is now, as far as {@link LedgerRules} needs it; empty when it does not exist. */
  Optional<AccountSnapshot> snapshot(String accountId) {
    return Optional.ofNullable(accounts.find(Filters.eq(ID, accountId))
        .projection(Projections.include(AVAILABLE, HOLDS + "." + REQUEST_ID, RECENT_IDS, PENDING + "." + ID)).first())
        .map(account -> {
          Set<String> applied = new HashSet<>(account.getList(RECENT_IDS, String.class, List.of()));
          account.getList(PENDING, Document.class, List.of()).forEach(e -> applied.add(e.getString(ID)));
          Set<String> held = new HashSet<>();
          account.getList(HOLDS, Document.class, List.of()).forEach(h -> held.add(h.getString(REQUEST_ID)));
          Object available = account.get(AVAILABLE);
          return new AccountSnapshot(available == null ? null : decimal(available), applied, held);
        });
  }

  /**
   * Creates the account with its opening float (an {@link MovementKind#OPENING} entry pending when the float is above
   * 0) and returns it; empty when it existed already (the unique {@code _id}: creating it twice changes nothing).
   */
  Optional<Document> open(OrganisationId organisationId, Currency currency, BigDecimal openingFloat, Instant now) {
    Document account = new Document(ID, accountId(organisationId, currency))
        .append(ORGANISATION, organisationId.value())
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
          .append(PENDING, new ArrayList<>(List.of(LedgerJournal.entry(opening, now))))
          .append(PENDING_SINCE, Date.from(now));
    } else {
      account.append(RECENT_IDS, new ArrayList<>()).append(PENDING, new ArrayList<>());
    }
    try {
      accounts.insertOne(account);
      return Optional.of(account);
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
        throw e;
      }
      return Optional.empty();
    }
  }

  Optional<Balance> balance(OrganisationId organisationId, Currency currency) {
    return Optional.ofNullable(accounts.find(Filters.and(Filters.eq(ID, accountId(organisationId, currency)),
            Filters.eq(ORGANISATION, organisationId.value())))
        .projection(Projections.include(CURRENCY, AVAILABLE, RESERVED)).first()).map(LedgerAccounts::toBalance);
  }

  List<Balance> balances(OrganisationId organisationId) {
    return accounts.find(Filters.eq(ORGANISATION, organisationId.value()))
        .projection(Projections.include(CURRENCY, AVAILABLE, RESERVED))
        .map(LedgerAccounts::toBalance).into(new ArrayList<>());
  }

  /**
   * The sum of every account of the currency: a system read for the funds reconciliation, which by definition spans
   * every organisation (operators only; no merchant path reaches it). Summed here in BigDecimal, exactly, one account
   * at a time: it runs about once a day, so what matters is that the sum is exact and independent of the store.
   */
  Liability liability(Currency currency) {
    BigDecimal available = BigDecimal.ZERO;
    BigDecimal reserved = BigDecimal.ZERO;
    int reservations = 0;
    int count = 0;
    for (Document account : accounts.find(Filters.eq(CURRENCY, currency.name()))
        .projection(Projections.include(AVAILABLE, RESERVED, HOLDS + "." + REQUEST_ID))) {
      available = available.add(decimal(account.get(AVAILABLE)));
      reserved = reserved.add(decimal(account.get(RESERVED)));
      reservations += account.getList(HOLDS, Document.class, List.of()).size();
      count++;
    }
    return new Liability(currency, available, reserved, reservations, count);
  }

  /** The entries still pending in the account (not yet copied to the journal); empty when it does not exist. */
  List<Document> pending(String accountId) {
    Document account = accounts.find(Filters.eq(ID, accountId)).projection(Projections.include(PENDING)).first();
    return account == null ? List.of() : account.getList(PENDING, Document.class, List.of());
  }

  /** Accounts (their ids and pending entries) whose oldest pending entry is older than the cut-off. */
  List<Document> withStalePending(Instant cutoff, int limit) {
    return accounts.find(Filters.lt(PENDING_SINCE, Date.from(cutoff)))
        .projection(Projections.include(ID, PENDING)).limit(limit).into(new ArrayList<>());
  }

  /**
   * Removes entries the journal now holds from the account's pending array. The usual case, nothing arrived since
   * the account was read, is one update guarded on exactly these entries that empties the array; otherwise only these
   * are pulled, and the marker is unset by a second update guarded on an empty array.
   */
  void clearPending(Object accountId, List<String> copiedIds) {
    long cleared = accounts.updateOne(Filters.and(Filters.eq(ID, accountId),
            Filters.size(PENDING, copiedIds.size()), Filters.all(PENDING + "." + ID, copiedIds)),
        Updates.combine(Updates.set(PENDING, List.of()), Updates.unset(PENDING_SINCE))).getMatchedCount();
    if (cleared > 0) {
      return;
    }
    accounts.updateOne(Filters.eq(ID, accountId),
        new Document("$pull", new Document(PENDING, new Document(ID, new Document("$in", copiedIds)))));
    accounts.updateOne(Filters.and(Filters.eq(ID, accountId), Filters.size(PENDING, 0)),
        Updates.unset(PENDING_SINCE));
  }

  /** Reservations made before the cut-off, of every organisation (a system job, not scoped by organisation). */
  List<Hold> holdsOlderThan(Instant cutoff, int limit) {
    List<Hold> holds = new ArrayList<>();
    accounts.find(Filters.lt(HOLDS + ".at", Date.from(cutoff))).projection(Projections.include(ORGANISATION,
        CURRENCY, HOLDS)).limit(limit).forEach(account -> account.getList(HOLDS, Document.class, List.of()).stream()
            .filter(h -> h.getDate("at").toInstant().isBefore(cutoff))
            .forEach(h -> holds.add(new Hold(OrganisationId.of(account.getString(ORGANISATION)),
                Currency.valueOf(account.getString(CURRENCY)), h.getString(REQUEST_ID), decimal(h.get("amount"))))));
    return holds;
  }

  private static Balance toBalance(Document d) {
    return new Balance(Currency.valueOf(d.getString(CURRENCY)), decimal(d.get(AVAILABLE)), decimal(d.get(RESERVED)));
  }
}
