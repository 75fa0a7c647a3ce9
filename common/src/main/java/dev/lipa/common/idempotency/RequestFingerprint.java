package dev.lipa.common.idempotency;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The fingerprint of a request body: SHA-256 (lower-case hex) of its canonical JSON, so that two bodies that mean the
 * same thing have the same fingerprint whatever their whitespace or key order.
 *
 * <p>Canonical form: object keys sorted by their UTF-16 code units, no whitespace, strings escaped by Jackson, numbers
 * written in plain notation without trailing zeros ({@code 10}, {@code 10.0} and {@code 1E+1} are the same number, as
 * they are to every amount rule of the platform), arrays kept in order, {@code null} kept (an explicit null is a
 * different body from an absent key only in name; both are canonicalised as they are sent).
 */
public final class RequestFingerprint {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HexFormat HEX = HexFormat.of();

  private RequestFingerprint() {
  }

  /** The fingerprint of a parsed body (numbers should have been read as BigDecimal, as the platform's mapper does). */
  public static String of(JsonNode body) {
    return sha256(canonical(body));
  }

  /** The canonical JSON text of a body; public for tests and for debugging a mismatch. */
  public static String canonical(JsonNode body) {
    StringBuilder out = new StringBuilder();
    write(body == null ? JsonNodeFactory.instance.nullNode() : body, out);
    return out.toString();
  }

  private static void write(JsonNode node, StringBuilder out) {
    if (node.isObject()) {
      Map<String, JsonNode> sorted = new TreeMap<>();
      node.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> entry : sorted.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append(JSON.writeValueAsString(entry.getKey())).append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(node.get(i), out);
      }
      out.append(']');
    } else if (node.isNumber()) {
      BigDecimal number = node.decimalValue();
      out.append(number.signum() == 0 ? "0" : number.stripTrailingZeros().toPlainString());
    } else if (node.isString()) {
      out.append(JSON.writeValueAsString(node.stringValue()));
    } else if (node.isBoolean()) {
      out.append(node.booleanValue());
    } else {
      out.append("null");
    }
  }

  private static String sha256(String text) {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
