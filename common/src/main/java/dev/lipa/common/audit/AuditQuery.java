package dev.lipa.common.audit;

import dev.lipa.common.time.QueryWindow;
import dev.lipa.common.web.FieldErrors;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The query of {@code GET /admin/v1/audit}: {@code from} and {@code to}, inclusive bounds on the call's time, each an
 * ISO date (the whole day in the platform zone), a local date-time, or a date-time with an offset; {@code page} from 0
 * and {@code size} from 1 to 500 (defaults 0 and 100). Blank values count as absent; every bad value is a 400 naming
 * its parameter.
 */
record AuditQuery(Instant from, Instant to, int page, int size) {

  static final int DEFAULT_SIZE = 100;
  static final int MAX_SIZE = 500;
  static final int MAX_PAGE = 100_000;

  static AuditQuery of(String from, String to, String page, String size, ZoneId zone) {
    FieldErrors errors = new FieldErrors();
    QueryWindow window = QueryWindow.read(from, to, zone, errors);
    Instant fromBound = window.from();
    Instant toBound = window.to();
    Integer pageNumber = present(page) ? integer(page) : Integer.valueOf(0);
    if (pageNumber == null || pageNumber < 0 || pageNumber > MAX_PAGE) {
      errors.add("page", "page must be a whole number from 0 to " + MAX_PAGE);
    }
    Integer pageSize = present(size) ? integer(size) : Integer.valueOf(DEFAULT_SIZE);
    if (pageSize == null || pageSize < 1 || pageSize > MAX_SIZE) {
      errors.add("size", "size must be a whole number between 1 and " + MAX_SIZE);
    }
    errors.throwIfAny();
    return new AuditQuery(fromBound, toBound, pageNumber, pageSize);
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }

  private static Integer integer(String text) {
    try {
      return Integer.valueOf(text.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
