package dev.lipa.common.organisations;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * A service's own copy of the organisation profiles auth-service publishes, in its collection {@value #COLLECTION}
 * ({@code _id} = organisationId). Filled by {@link OrganisationDirectoryListener}; read by whatever renders the spec's
 * organisation objects or maps a bank account to its organisation.
 *
 * <p>A profile is written only when its revision is newer than the stored one, so the copy converges on the latest
 * revision whatever the order in which events arrive, and a redelivered event changes nothing.
 *
 * <p>No unique index on the account numbers here: profiles of different organisations travel on different partitions,
 * so while an account moves from one organisation to another the copy may briefly list it twice;
 * {@link #byBankAccount} then answers the profile changed last. auth-service enforces the uniqueness.
 */
public final class OrganisationDirectory {

  public static final String COLLECTION = "organisations";
  private static final int DUPLICATE_KEY = 11000;
  private static final String ID = "_id";
  private static final String REVISION = "revision";
  private static final String ACCOUNTS = "bankAccountNumbers";
  private static final String PARENT_ID = "parentOrganisationId";

  private final MongoCollection<Document> collection;

  public OrganisationDirectory(MongoCollection<Document> collection) {
    this.collection = collection;
    // the embedded store ignores non-unique indexes and scans (organisations are few); a real MongoDB uses these
    collection.createIndex(Indexes.ascending(ACCOUNTS), new IndexOptions().name("directory_bank_accounts"));
    collection.createIndex(Indexes.ascending(PARENT_ID), new IndexOptions().name("directory_parent"));
  }

  /**
   * Stores the profile unless the copy already holds this revision or a newer one. Returns whether it was stored.
   * One guarded upsert: when a newer or equal revision is stored the filter matches nothing and the upsert's insert
   * fails on the {@code _id}, which means "ignore". Two first-ever upserts of one organisation can also race that way;
   * the loser then retries as a plain guarded update, which applies only if it is still the newer one.
   */
  public boolean apply(OrganisationProfile profile) {
    Bson newer = Filters.and(Filters.eq(ID, profile.organisationId()), Filters.lt(REVISION, profile.revision()));
    Bson update = Updates.combine(
        Updates.set("id", profile.id()),
        Updates.set("name", profile.name()),
        Updates.set("phoneNumber", profile.phoneNumber()),
        Updates.set("email", profile.email()),
        Updates.set("uniqueReference", profile.uniqueReference()),
        Updates.set("environment", profile.environment()),
        Updates.set("collectionCallbackUrl", profile.collectionCallbackUrl()),
        Updates.set(PARENT_ID, profile.parentOrganisationId()),
        Updates.set("parent", profile.parent()),
        Updates.set(ACCOUNTS, profile.bankAccountNumbers()),
        Updates.set("logoUrl", profile.logoUrl()),
        Updates.set("displayName", profile.displayName()),
        Updates.set("createdAt", date(profile.createdAt())),
        Updates.set("updatedAt", date(profile.updatedAt())),
        Updates.set(REVISION, profile.revision()));
    try {
      collection.findOneAndUpdate(newer, update, new FindOneAndUpdateOptions().upsert(true));
      return true;
    } catch (MongoServerException e) {
      if (e.getCode() != DUPLICATE_KEY) {
        throw e;
      }
      return collection.updateOne(newer, update).getModifiedCount() > 0;
    }
  }

  public Optional<OrganisationProfile> byId(OrganisationId organisationId) {
    if (organisationId == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(collection.find(Filters.eq(ID, organisationId.value())).first())
        .map(OrganisationDirectory::read);
  }

  /** The organisation credited for this bank account number; empty when no profile lists it. */
  public Optional<OrganisationProfile> byBankAccount(String accountNumber) {
    if (accountNumber == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(collection.find(Filters.eq(ACCOUNTS, accountNumber))
        .sort(Sorts.descending("updatedAt")).first()).map(OrganisationDirectory::read);
  }

  /** The sub-accounts of an organisation, oldest first. */
  public List<OrganisationProfile> children(OrganisationId parentOrganisationId) {
    return collection.find(Filters.eq(PARENT_ID, parentOrganisationId.value())).sort(Sorts.ascending("createdAt", ID))
        .map(OrganisationDirectory::read).into(new ArrayList<>());
  }

  private static OrganisationProfile read(Document d) {
    String parentId = d.getString(PARENT_ID);
    Number id = d.get("id", Number.class);
    return new OrganisationProfile(d.getString(ID), id == null ? 0 : id.longValue(), d.getString("name"),
        d.getString("phoneNumber"), d.getString("email"), d.getString("uniqueReference"),
        d.getString("environment"), d.getString("collectionCallbackUrl"), parentId, parentId == null,
        d.getList(ACCOUNTS, String.class, List.of()), d.getString("logoUrl"), d.getString("displayName"),
        instant(d.getDate("createdAt")), instant(d.getDate("updatedAt")), d.get(REVISION, Number.class).longValue());
  }

  private static Date date(Instant instant) {
    return instant == null ? null : Date.from(instant);
  }

  private static Instant instant(Date date) {
    return date == null ? null : date.toInstant();
  }
}
