package dev.lipa.rails.daraja.callback;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the bodies Daraja posts to our callback and result URLs. They are untrusted input (anyone who finds the URL
 * can post): a body that is not what Daraja sends gives a {@link Parsed.Rejected} with a reason, never an exception,
 * and the ids are held to a narrow alphabet before anyone logs or looks them up.
 */
public final class DarajaCallbacks {

  /** Daraja's callbacks are a few hundred bytes; anything much larger is not Daraja's. */
  public static final int MAX_BODY_CHARS = 64 * 1024;

  private static final JsonMapper JSON = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder()
              .maxNestingDepth(16)
              .maxStringLength(8 * 1024)
              .maxNumberLength(40)
              .build())
          .build())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      // amounts keep their digits (1.00 stays 1.00, never a double)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .build();

  private static final String ID = "[A-Za-z0-9_.-]{1,64}";
  private static final String CODE = "[A-Za-z0-9_]{1,16}";
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuuMMddHHmmss", Locale.ROOT);

  private DarajaCallbacks() {
  }

  /** Reads an STK callback ({@code {"Body":{"stkCallback":{...}}}}). */
  public static Parsed<StkCallback> stk(String body) {
    try {
      JsonNode root = read(body);
      JsonNode cb = root.path("Body").path("stkCallback");
      if (!cb.isObject()) {
        return rejected("no Body.stkCallback object");
      }
      String merchantRequestId = id(cb, "MerchantRequestID");
      String checkoutRequestId = id(cb, "CheckoutRequestID");
      String resultCode = code(cb, "ResultCode");
      String resultDesc = text(cb, "ResultDesc", 1024, true);
      StkCallback.Payment payment = null;
      if ("0".equals(resultCode)) {
        Map<String, JsonNode> items = items(cb.path("CallbackMetadata"));
        BigDecimal amount = amount(items.get("Amount"), "CallbackMetadata Amount");
        String receipt = scalar(items.get("MpesaReceiptNumber"));
        if (receipt == null || !receipt.matches("[A-Z0-9]{6,20}")) {
          throw new Invalid("CallbackMetadata MpesaReceiptNumber missing or not a receipt");
        }
        String phone = scalar(items.get("PhoneNumber"));
        if (phone == null || !phone.matches("[0-9]{9,15}")) {
          throw new Invalid("CallbackMetadata PhoneNumber missing or not a phone number");
        }
        LocalDateTime date = null;
        String when = scalar(items.get("TransactionDate"));
        if (when != null) {
          try {
            date = LocalDateTime.parse(when, DATE);
          } catch (DateTimeParseException e) {
            throw new Invalid("CallbackMetadata TransactionDate is not yyyyMMddHHmmss");
          }
        }
        payment = new StkCallback.Payment(amount, receipt, date, phone);
      }
      return new Parsed.Valid<>(new StkCallback(merchantRequestId, checkoutRequestId, resultCode, resultDesc,
          payment));
    } catch (Invalid e) {
      return rejected(e.getMessage());
    }
  }

  /** Reads a {@code Result} body (B2C, B2B, Transaction Status, Account Balance, Reversal). */
  public static Parsed<DarajaResult> result(String body) {
    try {
      JsonNode root = read(body);
      JsonNode r = root.path("Result");
      if (!r.isObject()) {
        return rejected("no Result object");
      }
      String resultType = code(r, "ResultType");
      if (!resultType.matches("[0-9]")) {
        throw new Invalid("ResultType is not a digit");
      }
      String resultCode = code(r, "ResultCode");
      String resultDesc = text(r, "ResultDesc", 1024, true);
      String originator = id(r, "OriginatorConversationID");
      String conversation = id(r, "ConversationID");
      String transactionId = r.has("TransactionID") ? id(r, "TransactionID") : null;
      List<DarajaResult.Parameter> parameters = keyValues(r.path("ResultParameters"), "ResultParameter");
      List<DarajaResult.Parameter> references = keyValues(r.path("ReferenceData"), "ReferenceItem");
      return new Parsed.Valid<>(new DarajaResult(Integer.parseInt(resultType), resultCode, resultDesc, originator,
          conversation, transactionId, parameters, references));
    } catch (Invalid e) {
      return rejected(e.getMessage());
    }
  }

  private static <T> Parsed<T> rejected(String reason) {
    return new Parsed.Rejected<>(reason);
  }

  /** A problem with the body; its message names fields, never their values. */
  private static final class Invalid extends Exception {
    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  private static JsonNode read(String body) throws Invalid {
    if (body == null || body.isBlank()) {
      throw new Invalid("empty body");
    }
    if (body.length() > MAX_BODY_CHARS) {
      throw new Invalid("body larger than " + MAX_BODY_CHARS + " characters");
    }
    try {
      JsonNode root = JSON.readTree(body);
      if (root == null || !root.isObject()) {
        throw new Invalid("not a JSON object");
      }
      return root;
    } catch (JacksonException e) {
      throw new Invalid("not JSON (or past the reader's limits, or a repeated key)");
    }
  }

  private static String id(JsonNode node, String field) throws Invalid {
    String s = scalar(node.get(field));
    if (s == null || !s.matches(ID)) {
      throw new Invalid(field + " missing or not an id");
    }
    return s;
  }

  private static String code(JsonNode node, String field) throws Invalid {
    String s = scalar(node.get(field));
    if (s == null || !s.strip().matches(CODE)) {
      throw new Invalid(field + " missing or not a code");
    }
    return s.strip();
  }

  private static String text(JsonNode node, String field, int max, boolean required) throws Invalid {
    JsonNode n = node.get(field);
    if (n == null || n.isNull()) {
      if (required) {
        throw new Invalid(field + " missing");
      }
      return null;
    }
    if (!n.isString() || n.stringValue().length() > max) {
      throw new Invalid(field + " is not a text of at most " + max + " characters");
    }
    return n.stringValue();
  }

  /** A string or a number as text; null for anything else. Integral numbers in full (receipts of 14 digits). */
  private static String scalar(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isString()) {
      return n.stringValue();
    }
    if (n.isIntegralNumber()) {
      return n.bigIntegerValue().toString();
    }
    if (n.isNumber()) {
      return n.decimalValue().toPlainString();
    }
    return null;
  }

  private static BigDecimal amount(JsonNode n, String what) throws Invalid {
    String s = scalar(n);
    BigDecimal amount = s == null ? null : DarajaResult.decimal(s).orElse(null);
    if (amount == null || amount.signum() <= 0) {
      throw new Invalid(what + " missing or not a positive amount");
    }
    return amount;
  }

  /** {@code CallbackMetadata.Item}: an array of {@code {Name, Value?}}; a name given twice is refused. */
  private static Map<String, JsonNode> items(JsonNode metadata) throws Invalid {
    JsonNode items = metadata.path("Item");
    if (!items.isArray()) {
      throw new Invalid("a successful result without CallbackMetadata.Item");
    }
    if (items.size() > 32) {
      throw new Invalid("too many CallbackMetadata items");
    }
    Map<String, JsonNode> byName = new HashMap<>();
    for (JsonNode item : items) {
      if (!item.isObject() || !item.path("Name").isString()) {
        throw new Invalid("a CallbackMetadata item without a Name");
      }
      JsonNode value = item.get("Value");
      if (value != null && !(value.isString() || value.isNumber() || value.isNull())) {
        throw new Invalid("a CallbackMetadata item whose Value is not a string or a number");
      }
      if (byName.put(item.path("Name").stringValue(), value) != null) {
        throw new Invalid("a CallbackMetadata item named twice");
      }
    }
    return byName;
  }

  /** {@code {child: [ {Key, Value?}, ... ]}} or {@code {child: {Key, Value?}}}: Daraja sends both. */
  private static List<DarajaResult.Parameter> keyValues(JsonNode parent, String child) throws Invalid {
    List<DarajaResult.Parameter> out = new ArrayList<>();
    if (parent.isMissingNode() || parent.isNull()) {
      return out;
    }
    if (!parent.isObject()) {
      throw new Invalid(child + "'s parent is not an object");
    }
    JsonNode c = parent.get(child);
    if (c == null || c.isNull()) {
      return out;
    }
    List<JsonNode> entries = new ArrayList<>();
    if (c.isArray()) {
      c.forEach(entries::add);
    } else {
      entries.add(c);
    }
    if (entries.size() > 64) {
      throw new Invalid("too many " + child + " entries");
    }
    for (JsonNode e : entries) {
      if (!e.isObject() || !e.path("Key").isString() || e.path("Key").stringValue().length() > 128) {
        throw new Invalid(child + " entry without a Key");
      }
      JsonNode v = e.get("Value");
      if (v != null && !(v.isString() || v.isNumber() || v.isNull())) {
        throw new Invalid(child + " entry whose Value is not a string or a number");
      }
      out.add(new DarajaResult.Parameter(e.path("Key").stringValue(), scalar(v)));
    }
    return out;
  }
}
