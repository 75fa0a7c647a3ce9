package dev.lipa.common.idempotency;

import dev.lipa.common.json.PlatformJson;
import java.math.BigDecimal;
import java.math.BigInteger;
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
 *
 * <p>A number whose plain form would be longer than {@value #MAX_PLAIN_LENGTH} characters ({@code 1e200000000} is 11
 * characters and a 200-million-digit plain form) is written instead as its digits without trailing zeros and its
 * exponent ({@code 1E200000000}), worked out from the digits it was sent with and never expanded. Plain forms contain
 * no {@code E}, so the two forms never meet, and every number that had a plain form of that length before keeps it:
 * a fingerprint stored under an Idempotency-Key before this rule still matches its retry.
 */
public final class RequestFingerprint {

  /** Longer plain forms are written with an exponent; no amount comes near it (a plain 1E+1023 is 1,024). */
  static final int MAX_PLAIN_LENGTH = 1024;

  private static final JsonMapper JSON = PlatformJson.builder().build();
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
      writeNumber(node, out);
    } else if (node.isString()) {
      out.append(JSON.writeValueAsString(node.stringValue()));
    } else if (node.isBoolean()) {
      out.append(node.booleanValue());
    } else {
      out.append("null");
    }
  }

  private static void writeNumber(JsonNode node, StringBuilder out) {
    if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) {
      // only a tree built by hand holds NaN or an infinity; the platform's mapper refuses them
      out.append(node.doubleValue());
      return;
    }
    BigDecimal number = node.decimalValue();
    if (number.signum() == 0) {
      out.append('0');
      return;
    }
    // value = digits x 10^exponent, with the digits' trailing zeros moved into the exponent (long: it may pass int)
    String unscaled = number.unscaledValue().abs().toString();
    int end = unscaled.length();
    while (unscaled.charAt(end - 1) == '0') {
      end--;
    }
    String digits = unscaled.substring(0, end);
    long exponent = -(long) number.scale() + (unscaled.length() - end);
    if (plainLength(digits.length(), exponent) <= MAX_PLAIN_LENGTH) {
      // the form fingerprints had before: stripTrailingZeros().toPlainString(), here cheap since the scale is small
      out.append(new BigDecimal(new BigInteger(number.signum() < 0 ? "-" + digits : digits),
          (int) -exponent).toPlainString());
    } else {
      out.append(number.signum() < 0 ? "-" : "").append(digits).append('E').append(exponent);
    }
  }

  /** Characters of the plain form of digits x 10^exponent, sign aside. */
  private static long plainLength(int digits, long exponent) {
    if (exponent >= 0) {
      return digits + exponent;
    }
    return -exponent < digits ? digits + 1 : 2 - exponent;
  }

  private static String sha256(String text) {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
