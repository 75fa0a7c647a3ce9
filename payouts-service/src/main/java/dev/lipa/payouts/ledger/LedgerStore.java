package dev.lipa.payouts.ledger;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.springframework.stereotype.Component;

/**
 * The ledger's storage: {@link LedgerAccounts} ({@value #ACCOUNTS}, one document per organisation and currency holding
 * the balance) and {@link LedgerJournal} ({@value #ENTRIES}, the append-only journal of movements), and the two steps
 * every write takes across them. The rules a movement must meet are {@link LedgerRules}'.
 *
 * <p><b>One movement is one atomic update of one account document</b> (the store has no multi-document
 * transactions), the atomic conditional update {@link LedgerAccounts#applyGuarded}. Its {@code findOneAndUpdate}
 * at once
 * <ul>
 *   <li>proves the movement was not applied yet: its id is neither among the account's {@code recent} movement ids
 *       (the last {@value LedgerAccounts#RECENT}, kept with {@code $push $slice}) nor among its {@code pending}
 *       entries;</li>
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
 * A group larger than the window pushes only its last {@value LedgerAccounts#RECENT} ids to {@code recent}; the
 * others are guarded by {@code pending} until copied and by the journal check after.
 */
@Component
public class LedgerStore {

  public static final String ACCOUNTS = LedgerAccounts.COLLECTION;
  public static final String ENTRIES = LedgerJournal.COLLECTION;

  private final LedgerAccounts accounts;
  private final LedgerJournal journal;

  public LedgerStore(MongoDatabase database) {
    this.accounts = new LedgerAccounts(database);
    this.journal = new LedgerJournal(database);
  }

  /** Applies the movement in one guarded update (see the class comment) and copies the account's pending entries. */
  MovementOutcome apply(Movement movement, Instant now) {
    Optional<Document> after = accounts.applyGuarded(movement, now);
    if (after.isPresent()) {
      copyPending(after.get());
      return MovementOutcome.APPLIED;
    }
    return accounts.snapshot(movement.accountId()).map(account -> LedgerRules.explain(movement, account))
        .orElse(MovementOutcome.NO_ACCOUNT);
  }

  /**
   * Applies movements of one account together in one guarded update (see the class comment): all of them or none.
   * They must be of one account, have distinct ids, and be of kinds that only add to available with no guard but
   * "not applied yet" ({@link LedgerRules#batchable}). {@link MovementOutcome#DUPLICATE} means at least one of them
   * was applied before (none is applied now); {@link MovementOutcome#NO_ACCOUNT} that the account does not exist yet;
   * {@link MovementOutcome#CHANGED} that the account changed in between (none is applied; try again).
   */
  MovementOutcome applyAll(List<Movement> movements, Instant now) {
    if (movements.isEmpty()) {
      return MovementOutcome.APPLIED;
    }
    String accountId = movements.getFirst().accountId();
    for (Movement movement : movements) {
      if (!LedgerRules.batchable(movement.kind()) || !movement.accountId().equals(accountId)) {
        throw new IllegalArgumentException("not a movement of a group: " + movement);
      }
    }
    List<String> ids = movements.stream().map(Movement::id).toList();
    if (Set.copyOf(ids).size() != ids.size()) {
      throw new IllegalArgumentException("a group applies each movement once");
    }
    Optional<Document> after = accounts.applyGroupGuarded(accountId, movements, now);
    if (after.isPresent()) {
      copyPending(after.get());
      return MovementOutcome.APPLIED;
    }
    return accounts.snapshot(accountId).map(account -> LedgerRules.explainGroup(ids, account))
        .orElse(MovementOutcome.NO_ACCOUNT);
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
  void open(OrganisationId organisationId, Currency currency, BigDecimal openingFloat, Instant now) {
    accounts.open(organisationId, currency, openingFloat, now).ifPresent(this::copyPending);
  }

  Optional<Balance> balance(OrganisationId organisationId, Currency currency) {
    return accounts.balance(organisationId, currency);
  }

  List<Balance> balances(OrganisationId organisationId) {
    return accounts.balances(organisationId);
  }

  /** The sum of every account of the currency (the funds reconciliation's; not scoped by organisation). */
  Liability liability(Currency currency) {
    return accounts.liability(currency);
  }

  /** Whether the journal holds this movement's entry already (copied from an account's pending array). */
  boolean journalHas(Movement movement) {
    return journal.has(movement);
  }

  /** Which of these movement ids the journal holds already, in one query on {@code _id}. */
  Set<String> journalHolds(Collection<String> ids) {
    return journal.holding(ids);
  }

  /** The account's entries, oldest first: the journal's and those still pending, each once. */
  public List<LedgerEntry> entries(OrganisationId organisationId, Currency currency) {
    List<LedgerEntry> entries = journal.of(organisationId, currency);
    List<String> ids = entries.stream().map(LedgerEntry::id).toList();
    accounts.pending(LedgerAccounts.accountId(organisationId, currency)).stream().map(LedgerJournal::toEntry)
        .filter(e -> !ids.contains(e.id())).forEach(entries::add);
    return entries;
  }

  /** Copies the pending entries of accounts whose oldest pending entry is older than the cut-off. */
  int copyStalePending(Instant cutoff, int limit) {
    List<Document> stale = accounts.withStalePending(cutoff, limit);
    stale.forEach(this::copyPending);
    return stale.size();
  }

  /** Reservations made before the cut-off, of every organisation (a system job, not scoped by organisation). */
  List<Hold> holdsOlderThan(Instant cutoff, int limit) {
    return accounts.holdsOlderThan(cutoff, limit);
  }

  /** Copies the account's pending entries to the journal, then removes them from the account. */
  private void copyPending(Document account) {
    List<Document> pending = account.getList(LedgerAccounts.PENDING, Document.class, List.of());
    if (pending.isEmpty()) {
      return;
    }
    journal.append(pending);
    accounts.clearPending(account.get(LedgerJournal.ID),
        pending.stream().map(entry -> entry.getString(LedgerJournal.ID)).toList());
  }
}
