package dev.lipa.common.time;

import dev.lipa.common.web.FieldErrors;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The {@code from} and {@code to} of a list query (both inclusive, either may be absent), read with
 * {@link RecordTimes#queryBound}: an unreadable bound, or a {@code to} before the {@code from}, is a field error.
 *
 * @param from the first instant listed, or null
 * @param to the last instant listed, or null
 */
public record QueryWindow(Instant from, Instant to) {

  /** Reads the two bounds; their problems are added to {@code errors} under {@code from} and {@code to}. */
  public static QueryWindow read(String from, String to, ZoneId zone, FieldErrors errors) {
    Instant fromBound = present(from) ? RecordTimes.queryBound(from.strip(), false, zone) : null;
    if (present(from) && fromBound == null) {
      errors.add("from", "from must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS)");
    }
    Instant toBound = present(to) ? RecordTimes.queryBound(to.strip(), true, zone) : null;
    if (present(to) && toBound == null) {
      errors.add("to", "to must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS)");
    }
    if (fromBound != null && toBound != null && toBound.isBefore(fromBound)) {
      errors.add("to", "to must not be before from");
    }
    return new QueryWindow(fromBound, toBound);
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }
}
