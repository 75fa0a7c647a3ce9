package dev.lipa.payouts.requests;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.function.Function;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * Who carries out a PENDING record that moves money (a transfer, a top-up): {@code claimant}, a random token, until
 * {@code claimedUntil}. Only the claimant completes or deletes the record, so the request that stored it and a resume
 * job that takes over an abandoned one never decide its end differently.
 */
public final class Claims {

  static final String CLAIMANT = "claimant";
  static final String CLAIMED_UNTIL = "claimedUntil";
  private static final String ID = "_id";
  private static final String STATUS = "status";
  private static final String CREATED_AT = "createdAt";

  private Claims() {
  }

  /** Adds the claim to a new record's document. */
  public static Document stamp(Document document, String claimant, Instant claimedUntil) {
    return document.append(CLAIMANT, claimant).append(CLAIMED_UNTIL, Date.from(claimedUntil));
  }

  /** Matches the record {@code id} while it has status {@code pending} and {@code claimant} holds its claim. */
  public static Bson heldBy(String id, String pending, String claimant) {
    return Filters.and(Filters.eq(ID, id), Filters.eq(STATUS, pending), Filters.eq(CLAIMANT, claimant));
  }

  /** Removes the claim: add to the update that ends the record's PENDING state. */
  public static Bson released() {
    return Updates.combine(Updates.unset(CLAIMANT), Updates.unset(CLAIMED_UNTIL));
  }

  /** Leaves the claim fields out of a read. */
  public static Bson hidden() {
    return Projections.exclude(CLAIMANT, CLAIMED_UNTIL);
  }

  /**
   * Takes over records of status {@code pending} created before {@code createdBefore} whose claim has ended (their
   * claimant crashed, or is slower than its claim), each by a compare-and-set, for {@code claimant} until
   * {@code claimedUntil}; returns them read with {@code reader}. A system job: not scoped by organisation.
   */
  public static <T> List<T> takeOverAbandoned(MongoCollection<Document> collection, String pending,
      Instant createdBefore, Instant now, String claimant, Instant claimedUntil, int limit, Bson projection,
      Function<Document, T> reader) {
    Bson claimEnded = Filters.or(Filters.lt(CLAIMED_UNTIL, Date.from(now)), Filters.exists(CLAIMED_UNTIL, false));
    List<T> taken = new ArrayList<>();
    for (Document candidate : collection.find(Filters.and(Filters.eq(STATUS, pending),
        Filters.lt(CREATED_AT, Date.from(createdBefore)), claimEnded)).projection(Projections.include(ID))
        .limit(limit)) {
      Document claimed = collection.findOneAndUpdate(
          Filters.and(Filters.eq(ID, candidate.get(ID)), Filters.eq(STATUS, pending), claimEnded),
          Updates.combine(Updates.set(CLAIMANT, claimant), Updates.set(CLAIMED_UNTIL, Date.from(claimedUntil))),
          new FindOneAndUpdateOptions().projection(projection).returnDocument(ReturnDocument.AFTER));
      if (claimed != null) {
        taken.add(reader.apply(claimed));
      }
    }
    return taken;
  }
}
