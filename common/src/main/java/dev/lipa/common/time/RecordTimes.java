package dev.lipa.common.time;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Times shown in records: ISO local date-time with microseconds, in the platform's configured zone. */
public final class RecordTimes {

  public static final ZoneId DEFAULT_ZONE = ZoneId.of("Africa/Nairobi");
  private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS");

  private RecordTimes() {
  }

  public static String format(Instant instant, ZoneId zone) {
    return instant == null ? null : FORMAT.format(instant.atZone(zone));
  }

  /**
   * The instant an inclusive {@code from} or {@code to} of a list query stands for: an ISO date is the whole day in
   * {@code zone} (its first millisecond as a lower bound, its last as an upper one: record times are stored to the
   * millisecond), a date-time with an offset is itself, a local date-time is read in {@code zone}. Null when the text is
   * none of these.
   */
  public static Instant queryBound(String text, boolean upper, ZoneId zone) {
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
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
