package dev.lipa.collections.stk.rail.daraja;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.rails.daraja.DarajaFieldException;
import dev.lipa.rails.daraja.DarajaFields;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * What was sent to Daraja for each push ({@code daraja_stk_requests}, one document per requestId): written before the
 * push is sent, so a redelivered event or a second caller never prompts the customer twice, and completed with
 * Daraja's ids (CheckoutRequestID, MerchantRequestID), which STK Query and the callback name. The push record's port
 * has no room for them until the result arrives, so they live here.
 */
@Component
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class StkRequestLog {

  static final String COLLECTION = "daraja_stk_requests";
  private static final int DUPLICATE_KEY = 11000;

  /** Where a push stands with Daraja. */
  enum State {
    /** Claimed, being sent (or the process died while sending: UNKNOWN in effect). */
    SENDING,
    /** Daraja acknowledged it; its ids are known. */
    ACCEPTED,
    /** Surely not acted upon; the push was failed. */
    REFUSED,
    /** May have been acted upon, without ids: matched by its own CallBackURL if its result arrives. */
    UNKNOWN
  }

  /** One push's entry. */
  record Entry(RequestId requestId, OrganisationId organisationId, String shortcode, String phoneNumber,
      BigDecimal amount, State state, String checkoutRequestId, String merchantRequestId, Instant createdAt) {

    /** Whether the push was sent to this number (in any of its spellings: 2547..., +2547..., 07...). */
    boolean sentTo(String number) {
      try {
        return number != null && DarajaFields.msisdn("PhoneNumber", number).equals(phoneNumber);
      } catch (DarajaFieldException e) {
        return false;
      }
    }
  }

  private final MongoCollection<Document> entries;

  StkRequestLog(MongoDatabase database) {
    this.entries = database.getCollection(COLLECTION);
    entries.createIndex(Indexes.ascending("checkoutRequestId"),
        new IndexOptions().name("daraja_stk_requests_checkout").unique(true).sparse(true));
  }

  /** Claims the push for sending; false when it was claimed before (sent, or being sent). */
  boolean claim(RequestId requestId, OrganisationId organisationId, String shortcode, String phoneNumber,
      BigDecimal amount, Instant now) {
    try {
      entries.insertOne(new Document("_id", requestId.toString())
          .append("organisationId", organisationId.value())
          .append("shortcode", shortcode)
          .append("phoneNumber", phoneNumber)
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

  void accepted(RequestId requestId, String checkoutRequestId, String merchantRequestId) {
    entries.updateOne(Filters.eq("_id", requestId.toString()), Updates.combine(
        Updates.set("state", State.ACCEPTED.name()), Updates.set("checkoutRequestId", checkoutRequestId),
        Updates.set("merchantRequestId", merchantRequestId)));
  }

  void mark(RequestId requestId, State state) {
    entries.updateOne(Filters.eq("_id", requestId.toString()), Updates.set("state", state.name()));
  }

  /** The push was settled by STK Query's answer (with this result code), not by its callback: it has no receipt. */
  void settledByQuery(RequestId requestId, String resultCode, Instant at) {
    entries.updateOne(Filters.eq("_id", requestId.toString()), Updates.combine(Updates.set("settledBy", "STK_QUERY"),
        Updates.set("queryResultCode", resultCode), Updates.set("settledAt", Date.from(at))));
  }

  /**
   * Keeps the receipt of a paid push's callback that came after STK Query had settled the push without one: the push
   * does not change (a settled push is final), but operators find the receipt here.
   */
  void lateReceipt(RequestId requestId, String receipt) {
    entries.updateOne(Filters.and(Filters.eq("_id", requestId.toString()), Filters.eq("settledBy", "STK_QUERY"),
        Filters.exists("lateReceipt", false)), Updates.set("lateReceipt", receipt));
  }

  Optional<Entry> find(RequestId requestId) {
    return Optional.ofNullable(entries.find(Filters.eq("_id", requestId.toString())).first()).map(StkRequestLog::read);
  }

  Optional<Entry> findByCheckoutRequestId(String checkoutRequestId) {
    return Optional.ofNullable(entries.find(Filters.eq("checkoutRequestId", checkoutRequestId)).first())
        .map(StkRequestLog::read);
  }

  private static Entry read(Document d) {
    return new Entry(RequestId.of(java.util.UUID.fromString(d.getString("_id"))),
        OrganisationId.of(d.getString("organisationId")), d.getString("shortcode"), d.getString("phoneNumber"),
        d.get("amount", Decimal128.class).bigDecimalValue(), State.valueOf(d.getString("state")),
        d.getString("checkoutRequestId"), d.getString("merchantRequestId"), d.getDate("createdAt").toInstant());
  }
}
