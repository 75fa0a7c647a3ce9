package dev.lipa.common.time;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** Times shown in records: ISO local date-time with microseconds, in the platform's configured zone. */
public final class RecordTimes {

  public static final ZoneId DEFAULT_ZONE = ZoneId.of("Africa/Nairobi");
  private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS");

  private RecordTimes() {
  }

  public static String format(Instant instant, ZoneId zone) {
    return instant == null ? null : FORMAT.format(instant.atZone(zone));
  }
}
