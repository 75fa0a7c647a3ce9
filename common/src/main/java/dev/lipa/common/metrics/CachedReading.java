package dev.lipa.common.metrics;

import java.time.Clock;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gauge's value read from the store at most once per {@code maxAge}: a scrape every few seconds (or several
 * monitoring systems scraping at once) costs at most one query per period. A failed read is NaN (the store is down:
 * the gauge says "unknown", never a reassuring zero).
 */
public final class CachedReading {

  private static final Logger log = LoggerFactory.getLogger(CachedReading.class);

  private final String name;
  private final DoubleSupplier read;
  private final Duration maxAge;
  private final Clock clock;
  private long readAtMillis = Long.MIN_VALUE;
  private double value = Double.NaN;

  public CachedReading(String name, DoubleSupplier read, Duration maxAge, Clock clock) {
    this.name = name;
    this.read = read;
    this.maxAge = maxAge;
    this.clock = clock;
  }

  /** The value, read now when the last reading is older than {@code maxAge}. */
  public synchronized double value() {
    long now = clock.millis();
    if (readAtMillis == Long.MIN_VALUE || now - readAtMillis >= maxAge.toMillis()) {
      readAtMillis = now;
      try {
        value = read.getAsDouble();
      } catch (RuntimeException e) {
        log.debug("gauge {} could not be read: {}", name, e.toString());
        value = Double.NaN;
      }
    }
    return value;
  }
}
