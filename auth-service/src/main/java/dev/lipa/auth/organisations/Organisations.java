package dev.lipa.auth.organisations;

import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.MongoErrors;
import dev.lipa.common.web.ValidationException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * Creates and finds organisations.
 *
 * <p>Sub-accounts are one level deep: a sub-account names an existing <em>top-level</em> organisation as its parent,
 * and a sub-account can never be a parent itself. Allocations, de-allocations and the parent's admin listings
 * (spec endpoint 16) are defined between a parent and its direct sub-accounts, so deeper trees would only add
 * ambiguity (whose balance does a grandchild draw on?) without a use.
 */
@Service
public class Organisations {

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
      Organisation organisation = new Organisation(UUID.randomUUID().toString(), id, command.name(),
          command.phoneNumber(), command.email(), newReference(), command.parentOrganisationId(), environment, now,
          now);
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

  public Optional<Organisation> find(String organisationId) {
    return store.find(organisationId);
  }

  public boolean exists(String organisationId) {
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
