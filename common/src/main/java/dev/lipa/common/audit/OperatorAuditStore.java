package dev.lipa.common.audit;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The audit log of operator calls in the service's own database (collection {@value #COLLECTION}), append-only: a
 * record is inserted before the call runs and completed once, with its status, after it; nothing else ever changes or
 * removes one.
 */
public final class OperatorAuditStore {

  public static final String COLLECTION = "operator_audit";
  private static final String AT = "at";
  private static final String STATUS = "status";

  private final MongoCollection<Document> records;

  public OperatorAuditStore(MongoCollection<Document> records) {
    this.records = records;
    records.createIndex(Indexes.descending(AT), new IndexOptions().name("operator_audit_at"));
  }

  /** Writes the record of a call about to run. */
  public void begin(AuditRecord record) {
    records.insertOne(new Document("_id", record.id())
        .append(AT, Date.from(record.at()))
        .append("operator", record.operator())
        .append("method", record.method())
        .append("path", record.path())
        .append("query", record.query())
        .append("address", record.address())
        .append("peerAddress", record.peerAddress())
        .append("correlationId", record.correlationId())
        .append("service", record.service()));
  }

  /** Completes the record of a call that ran: once; a record already completed stays as it is. */
  public void complete(String id, int status, Map<String, String> ids, Instant completedAt) {
    records.updateOne(Filters.and(Filters.eq("_id", id), Filters.exists(STATUS, false)), Updates.combine(
        Updates.set(STATUS, status),
        Updates.set("ids", new Document(new LinkedHashMap<>(ids))),
        Updates.set("completedAt", Date.from(completedAt))));
  }

  /** Records with {@code at} in {@code [from, to]} (either may be null: open), newest first. */
  public List<AuditRecord> list(Instant from, Instant to, int page, int size) {
    List<Bson> filters = new ArrayList<>();
    if (from != null) {
      filters.add(Filters.gte(AT, Date.from(from)));
    }
    if (to != null) {
      filters.add(Filters.lte(AT, Date.from(to)));
    }
    Bson filter = filters.isEmpty() ? new Document() : Filters.and(filters);
    List<AuditRecord> found = new ArrayList<>();
    records.find(filter).sort(Sorts.orderBy(Sorts.descending(AT), Sorts.descending("_id")))
        .skip(page * size).limit(size).forEach(d -> found.add(read(d)));
    return found;
  }

  private static AuditRecord read(Document d) {
    Map<String, String> ids = new LinkedHashMap<>();
    Document stored = d.get("ids", Document.class);
    if (stored != null) {
      stored.forEach((name, value) -> {
        if (value != null) {
          ids.put(name, value.toString());
        }
      });
    }
    Date completedAt = d.getDate("completedAt");
    return new AuditRecord(d.getString("_id"), d.getDate(AT).toInstant(), d.getString("operator"),
        d.getString("method"), d.getString("path"), d.getString("query"), ids, d.getInteger(STATUS),
        completedAt == null ? null : completedAt.toInstant(), d.getString("address"), d.getString("peerAddress"),
        d.getString("correlationId"), d.getString("service"));
  }
}
