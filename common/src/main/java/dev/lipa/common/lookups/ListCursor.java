package dev.lipa.common.lookups;

import com.mongodb.client.model.Filters;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ValidationException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bson.conversions.Bson;

/**
 * The next-page hint of a list (newest first by {@code createdAt}, then the record's numeric {@code id}): the position
 * of the last record of a page, for the list and organisation it was issued for. The next page holds the records
 * strictly after that position, so records created meanwhile (all newer) never shift a page. Its text is opaque to
 * clients: base64url of the fields, a dot and a digest of them, so a cursor edited by hand or cut short is refused.
 * It is no credential: the list is scoped by the verified token whatever a cursor says, and a cursor of another list or
 * organisation is refused rather than read.
 *
 * @param list which list it belongs to (e.g. {@code stk}, {@code send-money}): a cursor of one is refused by another
 * @param organisationId whose records the list showed
 * @param createdAt the last record's creation time (millisecond precision, as stored)
 * @param id the last record's numeric id
 */
public record ListCursor(String list, OrganisationId organisationId, Instant createdAt, long id) {

  /** The fields of a listed record the position is made of. */
  private static final String CREATED_AT = "createdAt";
  private static final String ID = "id";
  /** The query parameter that carries it. */
  public static final String PARAMETER = "cursor";
  /** Longer text is refused before it is decoded (the cursors issued are about 150 characters). */
  static final int MAX_LENGTH = 512;
  private static final String VERSION = "c1";
  private static final int DIGEST_BYTES = 16;
  private static final String REFUSED = "cursor is not a cursor of this list: use the nextCursor a page returned";

  public ListCursor {
    Objects.requireNonNull(list, "list");
    Objects.requireNonNull(organisationId, "organisationId");
    createdAt = Instant.ofEpochMilli(createdAt.toEpochMilli());
  }

  /** The opaque text a page's {@code nextCursor} carries. */
  public String encode() {
    String payload = String.join("\n", VERSION, list, organisationId.value(),
        Long.toString(createdAt.toEpochMilli()), Long.toString(id));
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    return base64.encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "."
        + base64.encodeToString(digest(payload));
  }

  /**
   * Reads a cursor sent back by a client for {@code list} of {@code organisationId}; blank is none (null). Anything
   * else that is not a cursor this list issued for this organisation, intact, is a 400 naming {@code cursor}.
   */
  public static ListCursor read(String text, String list, OrganisationId organisationId) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String trimmed = text.strip();
    if (trimmed.length() > MAX_LENGTH) {
      throw refused();
    }
    int dot = trimmed.indexOf('.');
    if (dot < 0 || dot != trimmed.lastIndexOf('.')) {
      throw refused();
    }
    String payload;
    byte[] digest;
    try {
      Base64.Decoder base64 = Base64.getUrlDecoder();
      payload = new String(base64.decode(trimmed.substring(0, dot)), StandardCharsets.UTF_8);
      digest = base64.decode(trimmed.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      throw refused();
    }
    // a constant-time comparison costs nothing here, though the digest is no secret
    if (!MessageDigest.isEqual(digest, digest(payload))) {
      throw refused();
    }
    String[] fields = payload.split("\n", -1);
    if (fields.length != 5 || !fields[0].equals(VERSION) || !fields[1].equals(list)
        || !fields[2].equals(organisationId.value())) {
      throw refused();
    }
    ListCursor cursor;
    try {
      cursor = new ListCursor(list, organisationId, Instant.ofEpochMilli(Long.parseLong(fields[3])),
          Long.parseLong(fields[4]));
    } catch (NumberFormatException | DateTimeException e) {
      throw refused();
    }
    // only the text issued: base64 has other spellings of the same bytes (unused low bits of the last character)
    if (!cursor.encode().equals(trimmed)) {
      throw refused();
    }
    return cursor;
  }

  private static ValidationException refused() {
    return ValidationException.of(PARAMETER, REFUSED);
  }

  private static byte[] digest(String payload) {
    try {
      byte[] full = MessageDigest.getInstance("SHA-256")
          .digest(("lipa list cursor\n" + payload).getBytes(StandardCharsets.UTF_8));
      return Arrays.copyOf(full, DIGEST_BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /**
   * The store filters of a list's time window and next page, on {@code createdAt} and the numeric {@code id}:
   * {@code from} and {@code to} inclusive (either may be null), and with a cursor only the records strictly after its
   * position (older, or as old with a lower id). One upper bound only, the earlier of {@code to} and the cursor's
   * time: the embedded store's planner ranges its index on the first one it finds.
   */
  public static List<Bson> window(Instant from, Instant to, ListCursor after) {
    List<Bson> filters = new ArrayList<>();
    if (from != null) {
      filters.add(Filters.gte(CREATED_AT, Date.from(from)));
    }
    Instant upper = to;
    if (after != null && (upper == null || after.createdAt().isBefore(upper))) {
      upper = after.createdAt();
    }
    if (upper != null) {
      filters.add(Filters.lte(CREATED_AT, Date.from(upper)));
    }
    if (after != null) {
      Date at = Date.from(after.createdAt());
      filters.add(Filters.or(Filters.lt(CREATED_AT, at),
          Filters.and(Filters.eq(CREATED_AT, at), Filters.lt(ID, after.id()))));
    }
    return filters;
  }
}
