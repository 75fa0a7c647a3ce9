package dev.lipa.auth.organisations;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import dev.lipa.auth.MongoErrors;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.Outboxes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.stereotype.Component;

import static com.mongodb.client.model.Filters.eq;

/**
 * Organisations in collection {@value Organisations#COLLECTION} ({@code _id} = organisationId; unique {@code id} and
 * {@code uniqueReference}), each carrying its own outbox of {@code organisation.upserted} events; the counter that
 * hands out numeric ids ({@code counters}); and the claims on bank account numbers ({@value #BANK_ACCOUNTS},
 * {@code _id} = the account number, so an account belongs to one organisation at most).
 */
@Component
class OrganisationStore {

  static final String BANK_ACCOUNTS = "bank_accounts";
  private static final String COUNTER = "organisations";
  private static final String REVISION = "revision";
  private static final String ACCOUNTS = "bankAccountNumbers";

  private final MongoCollection<Document> organisations;
  private final MongoCollection<Document> counters;
  private final MongoCollection<Document> bankAccounts;
  private final Outbox outbox;
  private final OrganisationEvents events;

  OrganisationStore(MongoDatabase database, Outboxes outboxes, OrganisationEvents events) {
    this.organisations = database.getCollection(Organisations.COLLECTION);
    this.counters = database.getCollection("counters");
    this.bankAccounts = database.getCollection(BANK_ACCOUNTS);
    this.outbox = outboxes.of(organisations);
    this.events = events;
    organisations.createIndex(Indexes.ascending("id"), new IndexOptions().name("organisation_numeric_id").unique(true));
    organisations.createIndex(Indexes.ascending("uniqueReference"),
        new IndexOptions().name("organisation_unique_reference").unique(true));
  }

  /**
   * The next numeric id. An extra write per organisation, which is fine: organisations are rare. On a real replica set
   * two first-ever upserts can race; the loser gets a duplicate key and simply increments the now existing counter.
   */
  long nextId() {
    FindOneAndUpdateOptions options = new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER);
    try {
      return counters.findOneAndUpdate(eq("_id", COUNTER), Updates.inc("seq", 1L), options).getLong("seq");
    } catch (RuntimeException e) {
      if (!MongoErrors.isDuplicateKey(e)) {
        throw e;
      }
      return counters.findOneAndUpdate(eq("_id", COUNTER), Updates.inc("seq", 1L), options).getLong("seq");
    }
  }

  /**
   * Inserts with its {@code organisation.upserted} event (one write); a duplicate key (only the generated reference
   * can collide) surfaces as the driver's exception and publishes nothing.
   */
  void insert(Organisation organisation) {
    Document document = new Document("_id", organisation.organisationId().value())
        .append("id", organisation.id())
        .append("uniqueReference", organisation.uniqueReference())
        .append("parentOrganisationId", text(organisation.parentOrganisationId()))
        .append("environment", organisation.environment())
        .append("createdAt", Date.from(organisation.createdAt()));
    profileFields(organisation).forEach(document::append);
    outbox.insert(document, List.of(events.upserted(organisation)));
  }

  /**
   * Writes {@code next} and its event in one compare-and-set on the revision {@code current} was read at. False,
   * having written nothing, when another change got there first.
   */
  boolean replace(Organisation current, Organisation next) {
    List<Bson> changes = new ArrayList<>();
    profileFields(next).forEach((field, value) -> changes.add(Updates.set(field, value)));
    return outbox.update(Filters.and(eq("_id", current.organisationId().value()), atRevision(current.revision())),
        Updates.combine(changes), List.of(events.upserted(next)));
  }

  Optional<Organisation> find(OrganisationId organisationId) {
    return Optional.ofNullable(organisations.find(eq("_id", organisationId.value()))
        .projection(Projections.exclude(Outbox.EVENTS, Outbox.PENDING_SINCE)).first()).map(OrganisationStore::read);
  }

  /** Organisations stored before profiles were published (no revision yet): never published. */
  List<Organisation> neverPublished(int limit) {
    return organisations.find(Filters.exists(REVISION, false))
        .projection(Projections.exclude(Outbox.EVENTS, Outbox.PENDING_SINCE)).limit(limit)
        .map(OrganisationStore::read).into(new ArrayList<>());
  }

  /**
   * Claims an account number for the organisation. True when this call claimed it, false when the organisation held
   * it already. A claim whose holder does not list the account (a crash between the claim and the profile write, or
   * between the profile write and the release) is stale once older than {@code staleBefore}, and is taken over.
   *
   * @throws BankAccountTakenException when another organisation holds it
   */
  boolean claimAccount(String accountNumber, OrganisationId organisation, Instant now, Instant staleBefore) {
    String organisationId = organisation.value();
    try {
      bankAccounts.insertOne(new Document("_id", accountNumber).append("organisationId", organisationId)
          .append("claimedAt", Date.from(now)));
      return true;
    } catch (RuntimeException e) {
      if (!MongoErrors.isDuplicateKey(e)) {
        throw e;
      }
    }
    Document claim = bankAccounts.find(eq("_id", accountNumber)).first();
    if (claim == null) {
      // released in between: try once more
      return claimAccount(accountNumber, organisation, now, Instant.MIN);
    }
    String holder = claim.getString("organisationId");
    if (holder.equals(organisationId)) {
      return false;
    }
    boolean stale = claim.getDate("claimedAt").toInstant().isBefore(staleBefore)
        && organisations.find(Filters.and(eq("_id", holder), eq(ACCOUNTS, accountNumber))).first() == null;
    if (stale && bankAccounts.findOneAndUpdate(Filters.and(eq("_id", accountNumber), eq("organisationId", holder)),
        Updates.combine(Updates.set("organisationId", organisationId), Updates.set("claimedAt", Date.from(now))))
        != null) {
      return true;
    }
    throw new BankAccountTakenException(accountNumber);
  }

  /** Gives the account number up, if this organisation holds it. */
  void releaseAccount(String accountNumber, OrganisationId organisationId) {
    bankAccounts.deleteOne(Filters.and(eq("_id", accountNumber), eq("organisationId", organisationId.value())));
  }

  /** The fields a profile change may set, plus the revision and update time. */
  private static Document profileFields(Organisation o) {
    return new Document("name", o.name())
        .append("phoneNumber", o.phoneNumber())
        .append("email", o.email())
        .append("collectionCallbackUrl", o.collectionCallbackUrl())
        .append("logoUrl", o.logoUrl())
        .append("displayName", o.displayName())
        .append(ACCOUNTS, o.bankAccountNumbers())
        .append("requestsPerSecond", o.requestsPerSecond())
        .append("updatedAt", Date.from(o.updatedAt()))
        .append(REVISION, o.revision());
  }

  private static String text(OrganisationId id) {
    return id == null ? null : id.value();
  }

  private static OrganisationId organisation(String text) {
    return text == null ? null : OrganisationId.of(text);
  }

  /** Organisations stored before revisions existed have none: they read as revision 0. */
  private static Bson atRevision(long revision) {
    return revision == 0 ? Filters.exists(REVISION, false) : eq(REVISION, revision);
  }

  private static Organisation read(Document d) {
    Number revision = d.get(REVISION, Number.class);
    Number requestsPerSecond = d.get("requestsPerSecond", Number.class);
    return new Organisation(OrganisationId.of(d.getString("_id")), ((Number) d.get("id")).longValue(), d.getString("name"),
        d.getString("phoneNumber"), d.getString("email"), d.getString("uniqueReference"),
        organisation(d.getString("parentOrganisationId")), d.getString("environment"), d.getString("collectionCallbackUrl"),
        d.getString("logoUrl"), d.getString("displayName"), d.getList(ACCOUNTS, String.class, List.of()),
        d.getDate("createdAt").toInstant(), d.getDate("updatedAt").toInstant(),
        revision == null ? 0 : revision.longValue(), requestsPerSecond == null ? null : requestsPerSecond.intValue());
  }
}
