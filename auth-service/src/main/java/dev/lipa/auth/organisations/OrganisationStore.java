package dev.lipa.auth.organisations;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import dev.lipa.auth.MongoErrors;
import java.util.Date;
import java.util.Optional;
import org.bson.Document;
import org.springframework.stereotype.Component;

import static com.mongodb.client.model.Filters.eq;

/**
 * Organisations in collection {@code organisations} ({@code _id} = organisationId; unique {@code id} and
 * {@code uniqueReference}) and the counter that hands out numeric ids ({@code counters}).
 */
@Component
class OrganisationStore {

  private static final String COUNTER = "organisations";

  private final MongoCollection<Document> organisations;
  private final MongoCollection<Document> counters;

  OrganisationStore(MongoDatabase database) {
    this.organisations = database.getCollection("organisations");
    this.counters = database.getCollection("counters");
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

  /** Inserts; a duplicate key (only the generated reference can collide) surfaces as the driver's exception. */
  void insert(Organisation organisation) {
    organisations.insertOne(new Document("_id", organisation.organisationId())
        .append("id", organisation.id())
        .append("name", organisation.name())
        .append("phoneNumber", organisation.phoneNumber())
        .append("email", organisation.email())
        .append("uniqueReference", organisation.uniqueReference())
        .append("parentOrganisationId", organisation.parentOrganisationId())
        .append("environment", organisation.environment())
        .append("createdAt", Date.from(organisation.createdAt()))
        .append("updatedAt", Date.from(organisation.updatedAt())));
  }

  Optional<Organisation> find(String organisationId) {
    return Optional.ofNullable(organisations.find(eq("_id", organisationId)).first()).map(OrganisationStore::read);
  }

  private static Organisation read(Document d) {
    return new Organisation(d.getString("_id"), ((Number) d.get("id")).longValue(), d.getString("name"),
        d.getString("phoneNumber"), d.getString("email"), d.getString("uniqueReference"),
        d.getString("parentOrganisationId"), d.getString("environment"), d.getDate("createdAt").toInstant(),
        d.getDate("updatedAt").toInstant());
  }
}
