package dev.lipa.payouts.payout.rail.daraja;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliation.Account;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliation.Question;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The {@code daraja_balance_reconciliations} collection: one document per reconciliation, amounts in Decimal128,
 * replaced whole by a compare-and-set on its {@code version}. A scheduled reconciliation carries its day in
 * {@code scheduledFor}, unique: the day's reconciliation is created once, however many replicas try or how often.
 * These are the platform's own records (no organisation's): operators read them all.
 */
@Component
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class BalanceReconciliationStore {

  static final String COLLECTION = "daraja_balance_reconciliations";
  private static final int DUPLICATE_KEY = 11000;

  private final MongoCollection<Document> reports;

  BalanceReconciliationStore(MongoDatabase database) {
    this.reports = database.getCollection(COLLECTION);
    reports.createIndex(Indexes.ascending("scheduledFor"),
        new IndexOptions().name(COLLECTION + "_scheduled_for").unique(true).sparse(true));
    reports.createIndex(Indexes.ascending("questions.conversationId"),
        new IndexOptions().name(COLLECTION + "_conversation"));
    reports.createIndex(Indexes.descending("askedAt"), new IndexOptions().name(COLLECTION + "_asked_at"));
    reports.createIndex(Indexes.ascending("status", "deadline"), new IndexOptions().name(COLLECTION + "_open"));
  }

  /** Stores a new report; false when it is the scheduled one of a day that has one already. */
  boolean insert(BalanceReconciliation report) {
    try {
      reports.insertOne(write(report));
      return true;
    } catch (MongoServerException e) {
      if (e.getCode() == DUPLICATE_KEY) {
        return false;
      }
      throw e;
    }
  }

  /** Replaces the report if it is still at {@code expectedVersion}; false when another change came first. */
  boolean replace(BalanceReconciliation report, long expectedVersion) {
    return reports.replaceOne(Filters.and(Filters.eq("_id", report.id()), Filters.eq("version", expectedVersion)),
        write(report), new ReplaceOptions()).getMatchedCount() == 1;
  }

  Optional<BalanceReconciliation> find(String id) {
    return Optional.ofNullable(reports.find(Filters.eq("_id", id)).first()).map(BalanceReconciliationStore::read);
  }

  /** The report whose question Daraja acknowledged under this ConversationID. */
  Optional<BalanceReconciliation> findByConversationId(String conversationId) {
    return Optional.ofNullable(reports.find(Filters.eq("questions.conversationId", conversationId)).first())
        .map(BalanceReconciliationStore::read);
  }

  boolean scheduledFor(LocalDate date) {
    return reports.find(Filters.eq("scheduledFor", date.toString())).first() != null;
  }

  /** The most recent reports first. */
  List<BalanceReconciliation> latest(int limit) {
    return reports.find().sort(Sorts.descending("askedAt")).limit(limit).map(BalanceReconciliationStore::read)
        .into(new ArrayList<>());
  }

  /** The most recent closed report (what the metrics show). */
  Optional<BalanceReconciliation> latestClosed() {
    return Optional.ofNullable(reports.find(Filters.ne("status", BalanceReconciliation.Status.OPEN.name()))
        .sort(Sorts.descending("askedAt")).limit(1).first()).map(BalanceReconciliationStore::read);
  }

  /** Open reports whose deadline has passed. */
  List<BalanceReconciliation> openPast(Instant now, int limit) {
    return reports.find(Filters.and(Filters.eq("status", BalanceReconciliation.Status.OPEN.name()),
            Filters.lte("deadline", Date.from(now))))
        .limit(limit).map(BalanceReconciliationStore::read).into(new ArrayList<>());
  }

  private static Document write(BalanceReconciliation r) {
    Document d = new Document("_id", r.id())
        .append("date", r.date().toString())
        .append("trigger", r.trigger().name())
        .append("status", r.status().name())
        .append("askedAt", Date.from(r.askedAt()))
        .append("deadline", Date.from(r.deadline()))
        .append("ledgerTotal", new Decimal128(r.ledgerTotal()))
        .append("platformFunds", new Decimal128(r.platformFunds()))
        .append("inFlightAmount", new Decimal128(r.inFlightAmount()))
        .append("inFlightPayouts", r.inFlightPayouts())
        .append("questions", r.questions().stream().map(BalanceReconciliationStore::write).toList())
        .append("closedAt", r.closedAt() == null ? null : Date.from(r.closedAt()))
        .append("version", r.version());
    if (r.trigger() == BalanceReconciliation.Trigger.SCHEDULED) {
      d.append("scheduledFor", r.date().toString());
    }
    if (r.comparison() != null) {
      d.append("comparison", new Document("held", new Decimal128(r.comparison().held()))
          .append("owed", new Decimal128(r.comparison().owed()))
          .append("platformFunds", new Decimal128(r.comparison().platformFunds()))
          .append("inFlight", new Decimal128(r.comparison().inFlight()))
          .append("difference", new Decimal128(r.comparison().difference()))
          .append("matched", r.comparison().matched()));
    }
    return d;
  }

  private static Document write(Question q) {
    return new Document("shortcode", q.shortcode())
        .append("state", q.state().name())
        .append("conversationId", q.conversationId())
        .append("accounts", q.accounts().stream().map(a -> new Document("name", a.name())
            .append("currency", a.currency())
            .append("available", new Decimal128(a.available()))
            .append("amounts", a.amounts().stream().map(Decimal128::new).toList())
            .append("compared", a.compared())).toList())
        .append("funds", q.funds() == null ? null : new Decimal128(q.funds()))
        .append("failure", q.failure())
        .append("answeredAt", q.answeredAt() == null ? null : Date.from(q.answeredAt()));
  }

  private static BalanceReconciliation read(Document d) {
    Document c = d.get("comparison", Document.class);
    FundsComparison comparison = c == null ? null : new FundsComparison(decimal(c.get("held")),
        decimal(c.get("owed")), decimal(c.get("platformFunds")), decimal(c.get("inFlight")),
        decimal(c.get("difference")), c.getBoolean("matched"));
    return new BalanceReconciliation(d.getString("_id"), LocalDate.parse(d.getString("date")),
        BalanceReconciliation.Trigger.valueOf(d.getString("trigger")),
        BalanceReconciliation.Status.valueOf(d.getString("status")), d.getDate("askedAt").toInstant(),
        d.getDate("deadline").toInstant(), decimal(d.get("ledgerTotal")), decimal(d.get("platformFunds")),
        decimal(d.get("inFlightAmount")),
        d.getInteger("inFlightPayouts"), d.getList("questions", Document.class).stream()
            .map(BalanceReconciliationStore::question).toList(), comparison, instant(d.getDate("closedAt")),
        d.get("version", Number.class).longValue());
  }

  private static Question question(Document q) {
    return new Question(q.getString("shortcode"), BalanceReconciliation.QuestionState.valueOf(q.getString("state")),
        q.getString("conversationId"), q.getList("accounts", Document.class).stream().map(a -> new Account(
            a.getString("name"), a.getString("currency"), decimal(a.get("available")),
            a.getList("amounts", Object.class).stream().map(BalanceReconciliationStore::decimal).toList(),
            a.getBoolean("compared"))).toList(),
        q.get("funds") == null ? null : decimal(q.get("funds")), q.getString("failure"),
        instant(q.getDate("answeredAt")));
  }

  private static BigDecimal decimal(Object stored) {
    return stored instanceof Decimal128 d ? d.bigDecimalValue() : new BigDecimal(stored.toString());
  }

  private static Instant instant(Date date) {
    return date == null ? null : date.toInstant();
  }
}
