package dev.lipa.payouts.payout.rail.daraja;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.UUID;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * What was sent to Daraja for each payout ({@code daraja_payout_requests}, one document per requestId): written
 * before the request is sent, so nothing ever sends a payout twice (a redelivered event, the overdue sweep, a second
 * replica), and completed with what reconciliation needs: our OriginatorConversationID (the payout's requestId),
 * Daraja's ConversationID, the shortcode it was paid from. The payout's port has no room for them until the result
 * arrives, so they live here.
 */
@Component
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class PayoutRequestLog {

  static final String COLLECTION = "daraja_payout_requests";
  private static final int DUPLICATE_KEY = 11000;

  /** Where a payout stands with Daraja. */
  enum State {
    /** Claimed, being sent (or the process died while sending: UNKNOWN in effect). */
    SENDING,
    /** Daraja acknowledged it; its result comes on the ResultURL. */
    ACCEPTED,
    /** Surely not acted upon; the payout was failed and its reservation released. */
    REFUSED,
    /** May have been acted upon: never resent, settled by Transaction Status on its OriginatorConversationID. */
    UNKNOWN
  }

  /** One payout's entry. */
  record Entry(RequestId requestId, OrganisationId organisationId, String shortcode, String product,
      String originatorConversationId, String conversationId, String receiver, BigDecimal amount, State state,
      Instant createdAt) {
  }

  private final MongoCollection<Document> entries;

  PayoutRequestLog(MongoDatabase database) {
    this.entries = database.getCollection(COLLECTION);
    entries.createIndex(Indexes.ascending("originatorConversationId"),
        new IndexOptions().name(COLLECTION + "_originator").unique(true));
    entries.createIndex(Indexes.ascending("conversationId"),
        new IndexOptions().name(COLLECTION + "_conversation").unique(true).sparse(true));
    entries.createIndex(Indexes.ascending("statusConversationIds"),
        new IndexOptions().name(COLLECTION + "_status_conversations"));
  }

  /** Claims the payout for sending; false when it was claimed before (sent, or being sent). */
  boolean claim(RequestId requestId, OrganisationId organisationId, String shortcode, String product,
      String originatorConversationId, String receiver, BigDecimal amount, Instant now) {
    try {
      entries.insertOne(new Document("_id", requestId.toString())
          .append("organisationId", organisationId.value())
          .append("shortcode", shortcode)
          .append("product", product)
          .append("originatorConversationId", originatorConversationId)
          .append("receiver", receiver)
          .append("amount", new Decimal128(amount))
          .append("state", State.SENDING.name())
          .append("createdAt", Date.from(now)));
      return true;
    } catch (MongoServerException e) {
      if (e.getCode() == DUPLICATE_KEY) {
        return false;
      }
      throw e;
    }
  }

  void accepted(RequestId requestId, String conversationId) {
    entries.updateOne(Filters.eq("_id", requestId.toString()), Updates.combine(
        Updates.set("state", State.ACCEPTED.name()), Updates.set("conversationId", conversationId)));
  }

  /** Daraja acknowledged a Transaction Status question about the payout under this ConversationID. */
  void statusAsked(RequestId requestId, String conversationId) {
    entries.updateOne(Filters.eq("_id", requestId.toString()), Updates.addToSet("statusConversationIds",
        conversationId));
  }

  void mark(RequestId requestId, State state) {
    entries.updateOne(Filters.eq("_id", requestId.toString()), Updates.set("state", state.name()));
  }

  Optional<Entry> find(RequestId requestId) {
    return Optional.ofNullable(entries.find(Filters.eq("_id", requestId.toString())).first())
        .map(PayoutRequestLog::read);
  }

  Optional<Entry> findByConversationId(String conversationId) {
    return Optional.ofNullable(entries.find(Filters.eq("conversationId", conversationId)).first())
        .map(PayoutRequestLog::read);
  }

  /** The payout a Transaction Status question with this ConversationID was about. */
  Optional<Entry> findByStatusConversationId(String conversationId) {
    return Optional.ofNullable(entries.find(Filters.eq("statusConversationIds", conversationId)).first())
        .map(PayoutRequestLog::read);
  }

  Optional<Entry> findByOriginatorConversationId(String originatorConversationId) {
    return Optional.ofNullable(entries.find(Filters.eq("originatorConversationId", originatorConversationId)).first())
        .map(PayoutRequestLog::read);
  }

  private static Entry read(Document d) {
    return new Entry(RequestId.of(UUID.fromString(d.getString("_id"))), OrganisationId.of(d.getString("organisationId")),
        d.getString("shortcode"), d.getString("product"), d.getString("originatorConversationId"),
        d.getString("conversationId"), d.getString("receiver"), d.get("amount", Decimal128.class).bigDecimalValue(),
        State.valueOf(d.getString("state")), d.getDate("createdAt").toInstant());
  }
}
