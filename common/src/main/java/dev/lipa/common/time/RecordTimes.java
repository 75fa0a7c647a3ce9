package dev.lipa.common.time;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** Times shown in records: ISO local date-time with microseconds, in the platform's configured zone. */
public final class RecordTimes {

  public static final ZoneId DEFAULT_ZONE = ZoneId.of("Africa/Nairobi");
  private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS");
  private static final Instant EARLIEST_BOUND = Instant.parse("0001-01-01T00:00:00Z");
  private static final Instant LATEST_BOUND = Instant.parse("9999-12-31T23:59:59.999Z");

  private RecordTimes() {
  }

  public static String format(Instant instant, ZoneId zone) {
    return instant == null ? null : FORMAT.format(instant.atZone(zone));
  }

  /**
   * The instant an inclusive {@code from} or {@code to} of a list query stands for: an ISO date is the whole day in
   * {@code zone} (its first millisecond as a lower bound, its last as an upper one: record times are stored to the
   * millisecond), a date-time with an offset is itself, a local date-time is read in {@code zone}. Null when the text is
   * none of these, or when it falls outside the years 0001 to 9999 (a store date, and the arithmetic on it, would
   * overflow further out).
   */
  public static Instant queryBound(String text, boolean upper, ZoneId zone) {
    Instant bound = parsedBound(text, upper, zone);
    return bound == null || bound.isBefore(EARLIEST_BOUND) || bound.isAfter(LATEST_BOUND) ? null : bound;
  }

  private static Instant parsedBound(String text, boolean upper, ZoneId zone) {
    try {
      if (text.length() == 10) {
        LocalDate day = LocalDate.parse(text);
        return upper ? day.plusDays(1).atStartOfDay(zone).toInstant().minusMillis(1)
            : day.atStartOfDay(zone).toInstant();
      }
      if (text.endsWith("Z") || text.matches(".*[+-]\\d{2}:\\d{2}$")) {
        return OffsetDateTime.parse(text).toInstant();
      }
      return LocalDateTime.parse(text).atZone(zone).toInstant();
    } catch (DateTimeException e) {
      // a parse failure, or a date-time the zone cannot place
      return null;
    }
  }
}
