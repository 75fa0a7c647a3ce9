package dev.lipa.collections.stk;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.lipa.collections.CollectionsProperties;
import dev.lipa.common.once.OnceRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The overdue sweep's bookkeeping on each PENDING push's own document ({@value StkPushStore#COLLECTION}): how many
 * times the rail was asked about it ({@code questions}), when to ask again ({@code askAgainAt}), and since when nobody
 * asks any more ({@code unresolvedAt}). It is no state of the push: the push stays PENDING until a rail's outcome
 * settles it, whatever is written here, and a push settled meanwhile is never touched (every write matches PENDING).
 *
 * <p>Without it the sweep would ask about a push that can never be answered (a live push whose acknowledgement was
 * lost) every few seconds forever, and such pushes, oldest first, would fill every batch and starve the newer ones.
 */
@Component
public class OverdueQuestions {

  static final String QUESTIONS = "questions";
  static final String ASK_AGAIN_AT = "askAgainAt";
  static final String UNRESOLVED_AT = "unresolvedAt";
  private static final String STATUS = "status";
  private static final String CREATED_AT = "createdAt";
  private static final Logger log = LoggerFactory.getLogger(OverdueQuestions.class);

  /** An overdue push, with how many times the rail was asked about it so far. */
  public record Due(StkPush push, int questions) {
  }

  /** A push the sweep asks about no more: still PENDING, left to operators. */
  public record Unresolved(StkPush push, int questions, Instant unresolvedAt) {
  }

  private final MongoCollection<Document> pushes;
  private final CollectionsProperties.Reconciliation settings;

  @Autowired
  public OverdueQuestions(MongoDatabase database, CollectionsProperties properties) {
    this(database, properties.reconciliation());
  }

  OverdueQuestions(MongoDatabase database, CollectionsProperties.Reconciliation settings) {
    this.pushes = database.getCollection(StkPushStore.COLLECTION);
    this.settings = settings;
    // the operators' list, oldest first; sparse: only the few pushes left to operators have the field
    pushes.createIndex(Indexes.ascending(UNRESOLVED_AT),
        new IndexOptions().name("stk_unresolved").sparse(true));
  }

  /**
   * PENDING pushes of every organisation created before the cut-off that are due for a question now (never asked, or
   * their pause is over) and not left to operators, oldest first: the overdue sweep's work list (a system job, not
   * scoped by an organisation). It reads a range of {@code stk_status_created}.
   */
  public List<Due> due(Instant createdBefore, Instant now, int limit) {
    return pushes.find(Filters.and(Filters.eq(STATUS, StkStatus.PENDING.name()),
            Filters.lt(CREATED_AT, Date.from(createdBefore)),
            Filters.exists(UNRESOLVED_AT, false),
            Filters.or(Filters.exists(ASK_AGAIN_AT, false), Filters.lte(ASK_AGAIN_AT, Date.from(now)))))
        .projection(OnceRecords.withoutOutbox())
        .sort(Sorts.ascending(CREATED_AT))
        .limit(limit)
        .map(d -> new Due(StkPushStore.toPush(d), d.get(QUESTIONS, 0)))
        .into(new ArrayList<>());
  }

  /**
   * Notes that the rail was asked about the push once more: it is due again after its next pause, or, when that was
   * the last question, left to operators (logged as an error once). A push the answer settled meanwhile is not
   * touched.
   *
   * @return true when the push is now unresolved
   */
  public boolean asked(Due due, Instant now) {
    int questions = due.questions() + 1;
    Optional<Duration> pause = settings.pauseAfter(questions);
    Bson change = pause.isPresent()
        ? Updates.combine(Updates.set(QUESTIONS, questions), Updates.set(ASK_AGAIN_AT, Date.from(now.plus(pause.get()))))
        : Updates.combine(Updates.set(QUESTIONS, questions), Updates.set(UNRESOLVED_AT, Date.from(now)));
    StkPush push = due.push();
    boolean changed = pushes.updateOne(Filters.and(Filters.eq("_id", push.requestId().toString()),
        Filters.eq("organisationId", push.organisationId().value()), Filters.eq(STATUS, StkStatus.PENDING.name())),
        change).getModifiedCount() > 0;
    if (changed && pause.isEmpty()) {
      log.error("STK push {} of {} ({} {}, created {}) is still PENDING after {} questions to its rail: unresolved, "
              + "asked about no more; an operator must find out whether it was paid (its callback still settles it)",
          push.requestId(), push.organisationId(), push.details().amount(), push.details().currency(),
          push.details().createdAt(), questions);
    }
    return changed && pause.isEmpty();
  }

  /** The PENDING pushes left to operators, longest unresolved first (a system view across organisations). */
  public List<Unresolved> unresolved(int limit) {
    return pushes.find(unresolved())
        .projection(OnceRecords.withoutOutbox())
        .sort(Sorts.ascending(UNRESOLVED_AT))
        .limit(limit)
        .map(d -> new Unresolved(StkPushStore.toPush(d), d.get(QUESTIONS, 0), d.getDate(UNRESOLVED_AT).toInstant()))
        .into(new ArrayList<>());
  }

  /** How many PENDING pushes are left to operators (the gauge's reading). */
  long countUnresolved() {
    return pushes.countDocuments(unresolved());
  }

  /** A range of {@code stk_unresolved}: only pushes left to operators have the field. */
  private static Bson unresolved() {
    return Filters.and(Filters.gte(UNRESOLVED_AT, new Date(0)), Filters.eq(STATUS, StkStatus.PENDING.name()));
  }
}
