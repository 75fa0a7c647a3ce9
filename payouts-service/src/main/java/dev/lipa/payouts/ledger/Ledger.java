package dev.lipa.payouts.ledger;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

/**
 * The balances of every organisation, per currency: reservations for accepted payouts, their settlement or release,
 * credits from collections, sandbox top-ups and transfers between a parent and its sub-accounts. Each operation is
 * one guarded single-document update ({@link LedgerStore} explains the invariant and the crash windows) under
 * {@link LedgerRules}.
 *
 * <p>Credits can also come many at a time ({@link #creditAll}, a Kafka batch of collection events): they are grouped
 * per account and each group is one journal query and one guarded update of its account, whatever its size.
 *
 * <p>A repair job ({@link LedgerRepair}) copies entries a crash left in account documents to the journal and releases
 * reservations that no payout owns; both are safe on every replica at once.
 */
@Service
public class Ledger implements AutoCloseable {

  /**
   * Tries per movement or group: opening the account takes one, and each time the account changes between a guarded
   * update that matched nothing and the read that explains it takes another (a race, rare and short).
   */
  private static final int ATTEMPTS = 5;

  private final LedgerStore store;
  private final ObjectProvider<ReservationOwners> owners;
  private final Clock clock;
  private final Map<String, BigDecimal> openingFloat;
  private final PayoutsProperties.Ledger settings;
  private final LedgerRepair repairs;

  /** A live ledger's accounts open at zero whatever is configured: the opening float is the sandbox's test money. */
  @Autowired
  public Ledger(LedgerStore store, ObjectProvider<ReservationOwners> owners, PayoutsProperties properties,
      Clock clock, StackEnvironment stack) {
    this.store = store;
    this.owners = owners;
    this.clock = clock;
    this.settings = properties.ledger();
    this.openingFloat = stack.isLive() ? Map.of() : settings.openingFloat();
    this.repairs = new LedgerRepair(store, owners, settings, this::apply, this::now);
  }

  /** The sandbox's ledger: for tests that build it themselves. */
  public Ledger(LedgerStore store, ObjectProvider<ReservationOwners> owners, PayoutsProperties properties,
      Clock clock) {
    this(store, owners, properties, clock, StackEnvironment.SANDBOX);
  }

  /**
   * Moves a payout's amount from available to reserved. Reserving the same requestId again changes nothing.
   *
   * @throws InsufficientBalanceException when available does not cover the amount; nothing is reserved
   */
  public void reserve(OrganisationId organisationId, Currency currency, RequestId requestId, BigDecimal amount) {
    apply(new Movement(organisationId, currency, MovementKind.RESERVE, requestId.toString(), amount));
  }

  /** The payout succeeded: its reservation leaves the account. False when it was settled or released already. */
  public boolean settle(OrganisationId organisationId, Currency currency, RequestId requestId, BigDecimal amount) {
    return apply(new Movement(organisationId, currency, MovementKind.SETTLE, requestId.toString(), amount));
  }

  /** The payout failed: its reservation returns to available. False when it was settled or released already. */
  public boolean release(OrganisationId organisationId, Currency currency, RequestId requestId,
      BigDecimal amount) {
    return apply(new Movement(organisationId, currency, MovementKind.RELEASE, requestId.toString(), amount));
  }

  /**
   * Credits a successful collection; {@code sourceId} identifies it (the same source credits once, however often
   * its event is delivered). Returns false for a repeat.
   */
  public boolean credit(OrganisationId organisationId, Currency currency, String sourceId, BigDecimal amount) {
    return apply(new Movement(organisationId, currency, MovementKind.CREDIT, sourceId, amount));
  }

  /**
   * Credits many successful collections ({@link MovementKind#CREDIT} movements, any accounts) and returns those
   * applied now; each credits once, however often it comes, within this call or across calls (the first of the same
   * id in {@code credits} counts). Per account, one journal query drops the credits the journal holds already
   * (repeats older than the recent window), then one guarded update applies the rest together; when that update
   * meets a credit applied before (a redelivered batch, or one that mixes old and new events), the group is applied
   * one credit at a time, so the repeats are refused and the others applied. Store failures propagate; calling again
   * with the same credits is harmless.
   */
  public List<Movement> creditAll(List<Movement> credits) {
    Map<String, Movement> unique = new LinkedHashMap<>();
    for (Movement credit : credits) {
      if (credit.kind() != MovementKind.CREDIT) {
        throw new IllegalArgumentException("not a credit: " + credit);
      }
      unique.putIfAbsent(credit.id(), credit);
    }
    Map<String, List<Movement>> byAccount = new LinkedHashMap<>();
    unique.values().forEach(c -> byAccount.computeIfAbsent(c.accountId(), a -> new ArrayList<>()).add(c));
    List<Movement> applied = new ArrayList<>();
    for (List<Movement> group : byAccount.values()) {
      Set<String> journaled = store.journalHolds(group.stream().map(Movement::id).toList());
      List<Movement> fresh = journaled.isEmpty() ? group
          : group.stream().filter(c -> !journaled.contains(c.id())).toList();
      if (!fresh.isEmpty()) {
        applied.addAll(applyGroup(fresh));
      }
    }
    return applied;
  }

  /** Applies credits of one account that the journal does not hold; returns those applied now. */
  private List<Movement> applyGroup(List<Movement> group) {
    BigDecimal sum = group.stream().map(Movement::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    // one credit alone takes the single-movement path: the same statements, and a repeat is told apart for free
    if (group.size() > 1 && LedgerStore.storable(sum)) {
      for (int attempt = 1; ; attempt++) {
        MovementOutcome outcome = store.applyAll(group, now());
        if (outcome == MovementOutcome.APPLIED) {
          return group;
        }
        if (outcome == MovementOutcome.DUPLICATE) {
          break; // some were applied before (a redelivery); one at a time refuses exactly those
        }
        if (attempt == ATTEMPTS) {
          throw new IllegalStateException("account " + group.getFirst().accountId() + " kept changing (" + outcome
              + ") while " + group.size() + " credits were applied; nothing was applied");
        }
        if (outcome == MovementOutcome.NO_ACCOUNT) {
          open(group.getFirst().organisationId(), group.getFirst().currency());
        }
        // CHANGED, or opened just now: try again
      }
    }
    // the journal was checked for the whole group just now
    return group.stream().filter(credit -> apply(credit, false)).toList();
  }

  /**
   * Adds sandbox money to the account, once per {@code topUpId} (repeating it changes nothing); returns the balance
   * after it.
   */
  public Balance topUp(OrganisationId organisationId, Currency currency, String topUpId, BigDecimal amount) {
    apply(new Movement(organisationId, currency, MovementKind.TOP_UP, topUpId, amount));
    return balance(organisationId, currency);
  }

  /**
   * One leg of a transfer between organisations: takes the amount out of {@code from}. Repeating a leg changes
   * nothing and returns false.
   *
   * @throws InsufficientBalanceException when available does not cover the amount
   */
  public boolean transferOut(OrganisationId organisationId, Currency currency, String transferId, BigDecimal amount) {
    return apply(new Movement(organisationId, currency, MovementKind.TRANSFER_OUT, transferId, amount));
  }

  /** The other leg of a transfer: adds the amount to the receiving account. Repeating it changes nothing. */
  public boolean transferIn(OrganisationId organisationId, Currency currency, String transferId, BigDecimal amount) {
    return apply(new Movement(organisationId, currency, MovementKind.TRANSFER_IN, transferId, amount));
  }

  /** The organisation's balance in every currency (accounts not used yet are opened with their float). */
  public List<Balance> balances(OrganisationId organisationId) {
    List<Balance> existing = store.balances(organisationId);
    if (existing.size() < Currency.values().length) {
      Arrays.stream(Currency.values()).filter(c -> existing.stream().noneMatch(b -> b.currency() == c))
          .forEach(c -> open(organisationId, c));
    }
    return Arrays.stream(Currency.values()).map(c -> balance(organisationId, c)).toList();
  }

  public Balance balance(OrganisationId organisationId, Currency currency) {
    return store.balance(organisationId, currency).orElseGet(() -> {
      open(organisationId, currency);
      return store.balance(organisationId, currency).orElseThrow();
    });
  }

  /**
   * What the platform owes every organisation in this currency, available and reserved (the funds reconciliation
   * compares it with what the platform's shortcodes hold). Read account by account: a concurrent movement may or may
   * not be in it, as with any read of a moving ledger.
   */
  public Liability liability(Currency currency) {
    return store.liability(currency);
  }

  /** Returns true when applied now, false when it was applied before (or its hold is already gone). */
  private boolean apply(Movement movement) {
    return apply(movement, LedgerRules.mayRepeatLate(movement.kind()));
  }

  /** {@link #apply(Movement)}, reading the journal first only when asked (a caller may have read it already). */
  private boolean apply(Movement movement, boolean checkJournal) {
    MovementKind kind = movement.kind();
    if (checkJournal && store.journalHas(movement)) {
      return false;
    }
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      switch (store.apply(movement, now())) {
        case APPLIED:
          return true;
        case DUPLICATE:
          return false;
        case NO_ACCOUNT:
          if (kind.guard() == MovementKind.Guard.HOLD_EXISTS) {
            return false; // no account, so no reservation to settle or release
          }
          open(movement.organisationId(), movement.currency());
          continue;
        case REFUSED:
          if (kind.guard() == MovementKind.Guard.AVAILABLE_COVERS) {
            throw new InsufficientBalanceException(movement.currency(),
                balance(movement.organisationId(), movement.currency()).available());
          }
          return false;
        case CHANGED:
          continue; // the account changed between the update and the read that explains it: nothing was applied
        default:
          throw new IllegalStateException();
      }
    }
    throw new IllegalStateException("account " + movement.accountId() + " kept changing while " + movement.id()
        + " was applied; nothing was applied");
  }

  private void open(OrganisationId organisationId, Currency currency) {
    store.open(organisationId, currency, openingFloat.getOrDefault(currency.name(), BigDecimal.ZERO), now());
  }

  /** Copies stale pending entries and releases orphaned reservations; returns how many reservations it released. */
  public int repair() {
    return repairs.run();
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  @Override
  public void close() {
    repairs.close();
  }
}
