package dev.lipa.auth.organisations;

import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.MongoErrors;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ValidationException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/**
 * Creates, changes and finds organisations. Every creation and every change is published as
 * {@code organisation.upserted} through the organisation document's outbox, in the same write as the change.
 *
 * <p>Sub-accounts are one level deep: a sub-account names an existing <em>top-level</em> organisation as its parent,
 * and a sub-account can never be a parent itself. Allocations, de-allocations and the parent's admin listings
 * (spec endpoint 16) are defined between a parent and its direct sub-accounts, so deeper trees would only add
 * ambiguity (whose balance does a grandchild draw on?) without a use.
 */
@Service
public class Organisations {

  /** The collection of organisations (and of their outbox). */
  public static final String COLLECTION = "organisations";

  private static final Logger log = LoggerFactory.getLogger(Organisations.class);
  private static final int CHANGE_ATTEMPTS = 3;
  private static final int BACKFILL_BATCH = 500;
  /** A claim on an account its holder does not list is left alone this long: the holder may be mid-change. */
  private static final Duration CLAIM_GRACE = Duration.ofMinutes(1);

  // Crockford's base32 without the look-alikes I, L, O and U: references are read out over the phone
  private static final char[] REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final int REFERENCE_LENGTH = 10;
  private static final int MAX_ATTEMPTS = 5;

  private final OrganisationStore store;
  private final Clock clock;
  private final String environment;
  private final SecureRandom random = new SecureRandom();

  Organisations(OrganisationStore store, Clock clock, AuthProperties properties) {
    this.store = store;
    this.clock = clock;
    this.environment = properties.environment();
  }

  /** Creates an organisation; a parent that does not exist or is itself a sub-account is a field error. */
  public Organisation create(NewOrganisation command) {
    if (command.parentOrganisationId() != null) {
      Optional<Organisation> parent = store.find(command.parentOrganisationId());
      if (parent.isEmpty()) {
        throw ValidationException.of("parentOrganisationId", "no organisation has this id");
      }
      if (parent.get().isSubAccount()) {
        throw ValidationException.of("parentOrganisationId",
            "this organisation is a sub-account; a sub-account cannot have sub-accounts");
      }
    }
    // the store keeps milliseconds: truncate so what we answer is what a later read shows
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    long id = store.nextId();
    for (int attempt = 1; ; attempt++) {
      Organisation organisation = new Organisation(OrganisationId.of(UUID.randomUUID().toString()), id, command.name(),
          command.phoneNumber(), command.email(), newReference(), command.parentOrganisationId(), environment, null,
          null, null, List.of(), now, now, 1, null);
      try {
        store.insert(organisation);
        return organisation;
      } catch (RuntimeException e) {
        // 50 random bits make a clash of references very unlikely; a clash just draws again
        if (!MongoErrors.isDuplicateKey(e) || attempt == MAX_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /**
   * Applies the operator's changes: one compare-and-set write of the profile with its event, plus the claims and
   * releases of bank account numbers around it (claims first, so that a profile never lists an account another
   * organisation holds; releases after). Changes that change nothing write nothing and publish nothing.
   *
   * @return the organisation as changed; empty when there is no such organisation
   * @throws BankAccountTakenException when an added account number belongs to another organisation
   * @throws ConcurrentChangeException when concurrent changes of the organisation kept winning
   */
  public Optional<Organisation> change(OrganisationId organisationId, OrganisationChanges changes) {
    for (int attempt = 1; ; attempt++) {
      Optional<Organisation> found = store.find(organisationId);
      if (found.isEmpty()) {
        return found;
      }
      Organisation current = found.get();
      Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
      Organisation next = current.change(changes, now);
      if (next == current) {
        return found;
      }
      List<String> claimed = new ArrayList<>();
      try {
        for (String account : next.bankAccountNumbers()) {
          if (!current.bankAccountNumbers().contains(account)
              && store.claimAccount(account, organisationId, now, now.minus(CLAIM_GRACE))) {
            claimed.add(account);
          }
        }
        if (store.replace(current, next)) {
          current.bankAccountNumbers().stream().filter(a -> !next.bankAccountNumbers().contains(a))
              .forEach(a -> store.releaseAccount(a, organisationId));
          return Optional.of(next);
        }
      } catch (RuntimeException e) {
        releaseUnlisted(organisationId, claimed);
        throw e;
      }
      releaseUnlisted(organisationId, claimed);
      if (attempt == CHANGE_ATTEMPTS) {
        throw new ConcurrentChangeException(organisationId);
      }
    }
  }

  /**
   * Publishes organisations stored before profiles were published (they have no revision): each becomes revision 1
   * with its event, in one compare-and-set write, so a replica running this at the same time publishes nothing twice.
   */
  @EventListener(ApplicationReadyEvent.class)
  public int publishNeverPublished() {
    int published = 0;
    List<Organisation> batch;
    do {
      batch = store.neverPublished(BACKFILL_BATCH);
      for (Organisation legacy : batch) {
        Organisation first = new Organisation(legacy.organisationId(), legacy.id(), legacy.name(),
            legacy.phoneNumber(), legacy.email(), legacy.uniqueReference(), legacy.parentOrganisationId(),
            legacy.environment(), legacy.collectionCallbackUrl(), legacy.logoUrl(), legacy.displayName(),
            legacy.bankAccountNumbers(), legacy.createdAt(), legacy.updatedAt(), 1, legacy.requestsPerSecond());
        if (store.replace(legacy, first)) {
          published++;
        }
      }
    } while (batch.size() == BACKFILL_BATCH);
    if (published > 0) {
      log.info("published {} organisation(s) stored before profiles were published", published);
    }
    return published;
  }

  /** Gives back the claims of a failed change that the stored profile does not list (another change may). */
  private void releaseUnlisted(OrganisationId organisationId, List<String> claimed) {
    if (claimed.isEmpty()) {
      return;
    }
    List<String> listed = store.find(organisationId).map(Organisation::bankAccountNumbers).orElse(List.of());
    claimed.stream().filter(a -> !listed.contains(a)).forEach(a -> store.releaseAccount(a, organisationId));
  }

  public Optional<Organisation> find(OrganisationId organisationId) {
    return store.find(organisationId);
  }

  public boolean exists(OrganisationId organisationId) {
    return store.find(organisationId).isPresent();
  }

  private String newReference() {
    StringBuilder reference = new StringBuilder("LP");
    for (int i = 0; i < REFERENCE_LENGTH; i++) {
      reference.append(REFERENCE_ALPHABET[random.nextInt(REFERENCE_ALPHABET.length)]);
    }
    return reference.toString();
  }
}
