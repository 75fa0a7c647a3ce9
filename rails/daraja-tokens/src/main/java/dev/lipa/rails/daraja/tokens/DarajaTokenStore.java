package dev.lipa.rails.daraja.tokens;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import dev.lipa.common.crypto.SealedRecords;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.crypto.SecretUnreadableException;
import dev.lipa.rails.daraja.SharedTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code daraja_tokens} collection of a service's own database: the access token of each Daraja app the service
 * uses, shared by all its replicas ({@link SharedTokens}). One document per app,
 * {@code {_id: sha256 of the consumer key, shortcode, generation, token, issuedAt, expiresAt, refused, claimId,
 * claimUntil, discardAt}}; the token is sealed under the platform's master key ({@link SecretEnvelope}, bound to the
 * document), because a bearer token is a credential. Every write is one compare-and-set on the document: a claim on
 * the generation the caller saw and the end of any earlier claim, a publish and a release on the claim's id, a refusal
 * on the generation.
 *
 * <p>These are the platform's credentials, not an organisation's: no filter here names an organisation (the platform's
 * rule for stores is about merchants' records).
 */
public final class DarajaTokenStore implements SharedTokens, SealedRecords {

  public static final String COLLECTION = "daraja_tokens";
  static final String EXPIRY_INDEX = "daraja_tokens_expiry";
  /** How long an app's document outlives its last token (or claim): an app no longer used leaves no credential. */
  static final Duration KEPT = Duration.ofDays(1);
  static final String TOKEN = "token";
  private static final Date NO_CLAIM = Date.from(Instant.EPOCH);
  private static final Logger log = LoggerFactory.getLogger(DarajaTokenStore.class);

  private final MongoCollection<Document> tokens;
  private final SecretEnvelope envelope;

  public DarajaTokenStore(MongoDatabase database, SecretEnvelope envelope) {
    this.tokens = database.getCollection(COLLECTION);
    this.envelope = envelope;
    tokens.createIndex(Indexes.ascending("discardAt"),
        new IndexOptions().name(EXPIRY_INDEX).expireAfter(0L, TimeUnit.SECONDS));
  }

  @Override
  public Optional<Token> current(App app) {
    Document d = tokens.find(new Document("_id", app.id())).first();
    if (d == null || d.getString(TOKEN) == null) {
      return Optional.empty();
    }
    long generation = d.get("generation", Number.class).longValue();
    String value;
    try {
      value = envelope.open(d.getString(TOKEN), context(app.id()));
    } catch (SecretUnreadableException e) {
      // sealed under a master key the ring no longer holds, or changed: unusable, so the next caller replaces it
      log.warn("the Daraja token of shortcode {}'s app (generation {}) does not open: {}", app.shortcode(),
          generation, e.getMessage());
      value = null;
    }
    return Optional.of(new Token(generation, value, d.getDate("issuedAt").toInstant(),
        d.getDate("expiresAt").toInstant(), d.getBoolean("refused", false)));
  }

  @Override
  public Optional<Claim> claim(App app, long seen, Instant now, Instant until) {
    if (seen == 0) {
      create(app, until);
    }
    String id = UUID.randomUUID().toString();
    Document claimed = tokens.findOneAndUpdate(
        new Document("_id", app.id()).append("generation", seen)
            .append("claimUntil", new Document("$lte", Date.from(now))),
        Updates.combine(Updates.set("claimId", id), Updates.set("claimUntil", Date.from(until)),
            Updates.set("shortcode", app.shortcode()), Updates.max("discardAt", Date.from(until.plus(KEPT)))),
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
    return claimed == null ? Optional.empty() : Optional.of(new Claim(app, id, seen, until));
  }

  @Override
  public Optional<Token> publish(Claim claim, String value, Instant issuedAt, Instant expiresAt) {
    String id = claim.app().id();
    Document published = tokens.findOneAndUpdate(
        new Document("_id", id).append("claimId", claim.id()).append("generation", claim.generation()),
        Updates.combine(Updates.set(TOKEN, envelope.seal(value, context(id))), Updates.inc("generation", 1L),
            Updates.set("issuedAt", Date.from(issuedAt)), Updates.set("expiresAt", Date.from(expiresAt)),
            Updates.set("refused", false), Updates.unset("claimId"), Updates.set("claimUntil", NO_CLAIM),
            Updates.set("discardAt", Date.from(expiresAt.plus(KEPT)))),
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
    return published == null ? Optional.empty() : Optional.of(new Token(
        published.get("generation", Number.class).longValue(), value, issuedAt, expiresAt, false));
  }

  @Override
  public void release(Claim claim) {
    tokens.updateOne(new Document("_id", claim.app().id()).append("claimId", claim.id()),
        Updates.combine(Updates.unset("claimId"), Updates.set("claimUntil", NO_CLAIM)));
  }

  @Override
  public void refuse(App app, long generation) {
    tokens.updateOne(new Document("_id", app.id()).append("generation", generation), Updates.set("refused", true));
  }

  @Override
  public MongoCollection<Document> collection() {
    return tokens;
  }

  @Override
  public List<String> fields() {
    return List.of(TOKEN);
  }

  @Override
  public String context(Document document) {
    return context(document.getString("_id"));
  }

  private static String context(String app) {
    return COLLECTION + ":" + app;
  }

  /** The app's document before its first token (generation 0, no claim); another replica may have made it first. */
  private void create(App app, Instant until) {
    try {
      tokens.insertOne(new Document("_id", app.id()).append("shortcode", app.shortcode()).append("generation", 0L)
          .append("claimUntil", NO_CLAIM).append("discardAt", Date.from(until.plus(KEPT))));
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
        throw e;
      }
    }
  }
}
