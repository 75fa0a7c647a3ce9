package dev.lipa.common.testsupport;

import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock for Bucket4j buckets that only the test moves: rate-limit tests assert counts, never timings. */
public final class ManualTimeMeter implements TimeMeter {

  private final AtomicLong nanos = new AtomicLong(System.currentTimeMillis() * 1_000_000);

  public void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }

  @Override
  public long currentTimeNanos() {
    return nanos.get();
  }

  @Override
  public boolean isWallClockBased() {
    return true;
  }
}
