package dev.lipa.collections.bank;

import dev.lipa.collections.organisations.OrganisationProfiles;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RecordIds;
import dev.lipa.common.metrics.PaymentKind;
import dev.lipa.common.metrics.PaymentMetrics;
import dev.lipa.common.organisations.OrganisationProfile;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The bank collection use cases: receive a partner bank's deposit, simulate one in the sandbox, look them up. The
 * credited account number names the organisation, through this service's copy of the organisation profiles.
 */
@Service
public class BankCollections {

  private static final Logger log = LoggerFactory.getLogger(BankCollections.class);
  private static final int ID_ATTEMPTS = 3;
  /** The partner banks are Kenyan: deposits are credited in KSH. */
  private static final String COUNTRY = "KE";

  private final BankCollectionStore store;
  private final OrganisationProfiles organisations;
  private final RecordIds ids;
  private final Clock clock;
  private final PaymentMetrics metrics;

  // the numeric ids come from the same generator as STK records': no store write per id
  public BankCollections(BankCollectionStore store, OrganisationProfiles organisations, RecordIds ids, Clock clock,
      PaymentMetrics metrics) {
    this.store = store;
    this.organisations = organisations;
    this.ids = ids;
    this.clock = clock;
    this.metrics = metrics.declare(PaymentKind.BANK_COLLECTION, COUNTRY);
  }

  /** What a deposit led to: the stored collection, and whether this call created it (false: a repeat). */
  public record Received(BankCollection collection, boolean created) {
  }

  /**
   * A partner bank's deposit to one of the platform's account numbers.
   *
   * @throws UnknownAccountException when no organisation holds the account number
   * @throws TransactionConflictException when the bank repeats a transactionref with other details
   */
  public Received receive(String bankCode, BankDeposit deposit) {
    Optional<Received> repeat = repeat(bankCode, null, deposit);
    if (repeat.isPresent()) {
      return repeat.get();
    }
    OrganisationProfile organisation = organisations.byBankAccount(deposit.accountnumber())
        .orElseThrow(UnknownAccountException::new);
    return store(bankCode, organisation, deposit);
  }

  /**
   * A merchant's simulated deposit to one of its own account numbers. An account of another organisation is refused
   * exactly like an unknown one, so the answer tells nothing about who holds it.
   */
  public Received simulate(OrganisationId organisationId, BankDeposit deposit) {
    OrganisationProfile organisation = organisations.byId(organisationId)
        .filter(o -> o.bankAccountNumbers().contains(deposit.accountnumber()))
        .orElseThrow(UnknownAccountException::new);
    return repeat(BankCollection.SANDBOX, organisationId, deposit)
        .orElseGet(() -> store(BankCollection.SANDBOX, organisation, deposit));
  }

  public Optional<BankCollection> find(OrganisationId organisationId, UUID uuid) {
    return store.find(organisationId, uuid);
  }

  public List<BankCollection> list(OrganisationId organisationId, BankListQuery query) {
    return store.list(organisationId, query);
  }

  private Optional<Received> repeat(String source, OrganisationId organisationId, BankDeposit deposit) {
    return store.findByTransaction(BankCollection.transactionKey(source, organisationId, deposit.transactionref()))
        .map(stored -> {
          if (!deposit.sameDepositAs(stored)) {
            throw new TransactionConflictException(deposit.transactionref());
          }
          return new Received(stored, false);
        });
  }

  /** One insert with the domain event and, when the organisation wants one, the callback request. */
  private Received store(String source, OrganisationProfile organisation, BankDeposit deposit) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    // common's profile holds the organisation as the text its event carried
    OrganisationId organisationId = OrganisationId.of(organisation.organisationId());
    for (int attempt = 1; ; attempt++) {
      BankCollection collection = BankCollection.receive(ids.next(), organisationId, source, deposit,
          organisation.collectionCallbackUrl(), now);
      try {
        store.insert(collection);
        // a deposit is final when it arrives: accepted and succeeded at once, with no outcome latency to time
        metrics.accepted(PaymentKind.BANK_COLLECTION, COUNTRY);
        metrics.finished(PaymentKind.BANK_COLLECTION, COUNTRY, true, null, null);
        return new Received(collection, true);
      } catch (BankCollectionStore.DuplicateTransactionException e) {
        // a concurrent repeat won the race: answer with what it stored
        return repeat(source, organisationId, deposit).orElseThrow(() -> e);
      } catch (BankCollectionStore.DuplicateIdException e) {
        if (attempt == ID_ATTEMPTS) {
          throw e;
        }
        log.warn("numeric id {} collided with another replica's; minting another", collection.id());
      }
    }
  }
}
