package dev.lipa.payouts.deallocation;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.events.Topics;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** Allocations and de-allocations in {@value #COLLECTION}, one document per transfer keyed by its requestId. */
@Component
public class TransferStore {

  public static final String COLLECTION = "transfers";
  private static final String ID = "_id";

  private final MongoCollection<Document> collection;
  private final Outbox outbox;
  private final JsonMapper json;
  private final Clock clock;

  public TransferStore(MongoDatabase database, @Qualifier("transferOutbox") Outbox outbox, JsonMapper json,
      Clock clock) {
    this.collection = database.getCollection(COLLECTION);
    this.outbox = outbox;
    this.json = json;
    this.clock = clock;
    // the embedded store ignores these; a real MongoDB serves the lists and the resume sweep from them
    collection.createIndex(Indexes.ascending("subAccountId", "type", "createdAt"),
        new IndexOptions().name("transfer_sub_account"));
    collection.createIndex(Indexes.ascending("parentOrganisationId", "type", "createdAt"),
        new IndexOptions().name("transfer_parent"));
    collection.createIndex(Indexes.ascending("status", "createdAt"), new IndexOptions().name("transfer_status"));
  }

  void insert(Transfer transfer) {
    collection.insertOne(new Document(ID, transfer.requestId().toString())
        .append("type", transfer.type().name())
        .append("parentOrganisationId", transfer.parentOrganisationId())
        .append("subAccountId", transfer.subAccountId())
        .append("initiatedBy", transfer.initiatedBy())
        .append("currency", transfer.currency().name())
        .append("amount", new Decimal128(transfer.amount()))
        .append("status", transfer.status().name())
        .append("createdAt", Date.from(transfer.createdAt()))
        .append("updatedAt", Date.from(transfer.updatedAt())));
  }

  /**
   * Compare-and-set PENDING to the transfer's status, with its {@code allocation.*} or {@code deallocation.*} event
   * ({@code succeeded} or {@code failed}) on {@value Topics#PAYOUTS} in the same write; false when it was completed
   * already.
   */
  boolean complete(Transfer transfer) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("requestId", transfer.requestId().toString());
    data.put("parentOrganisationId", transfer.parentOrganisationId());
    data.put("subAccountId", transfer.subAccountId());
    data.put("initiatedBy", transfer.initiatedBy());
    data.put("amount", transfer.amount());
    data.put("currency", transfer.currency().name());
    data.put("status", transfer.status().name());
    String type = transfer.type().name().toLowerCase(Locale.ROOT) + "."
        + (transfer.status() == Transfer.Status.SUCCESS ? "succeeded" : "failed");
    // the event belongs to the paying organisation's stream; the data names both sides
    EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), type, 1, clock.instant(),
        transfer.payer(), data);
    return outbox.update(Filters.and(Filters.eq(ID, transfer.requestId().toString()),
            Filters.eq("status", Transfer.Status.PENDING.name())),
        Updates.combine(Updates.set("status", transfer.status().name()),
            Updates.set("updatedAt", Date.from(transfer.updatedAt()))),
        List.of(OutboxEvent.of(Topics.PAYOUTS, transfer.requestId().toString(), envelope, json))) != null;
  }

  /** The de-allocations of one sub-account, newest first. */
  List<Transfer> deallocationsOf(String subAccountId) {
    return collection.find(Filters.and(Filters.eq("subAccountId", subAccountId),
            Filters.eq("type", Transfer.Type.DEALLOCATION.name())))
        .projection(Projections.exclude(Outbox.EVENTS, Outbox.PENDING_SINCE))
        .sort(Sorts.descending("createdAt")).map(TransferStore::read).into(new ArrayList<>());
  }

  /** The de-allocations of every sub-account of one parent, newest first. */
  List<Transfer> deallocationsUnder(String parentOrganisationId) {
    return collection.find(Filters.and(Filters.eq("parentOrganisationId", parentOrganisationId),
            Filters.eq("type", Transfer.Type.DEALLOCATION.name())))
        .projection(Projections.exclude(Outbox.EVENTS, Outbox.PENDING_SINCE))
        .sort(Sorts.descending("createdAt")).map(TransferStore::read).into(new ArrayList<>());
  }

  /** PENDING transfers created before the cut-off: what a crash interrupted (a system job). */
  List<Transfer> pendingBefore(Instant cutoff, int limit) {
    return collection.find(Filters.and(Filters.eq("status", Transfer.Status.PENDING.name()),
            Filters.lt("createdAt", Date.from(cutoff))))
        .limit(limit).map(TransferStore::read).into(new ArrayList<>());
  }

  private static Transfer read(Document d) {
    Object amount = d.get("amount");
    return new Transfer(UUID.fromString(d.getString(ID)), Transfer.Type.valueOf(d.getString("type")),
        d.getString("parentOrganisationId"), d.getString("subAccountId"), d.getString("initiatedBy"),
        Currency.valueOf(d.getString("currency")),
        amount instanceof Decimal128 dec ? dec.bigDecimalValue() : new BigDecimal(amount.toString()),
        Transfer.Status.valueOf(d.getString("status")), d.getDate("createdAt").toInstant(),
        d.getDate("updatedAt").toInstant());
  }
}
