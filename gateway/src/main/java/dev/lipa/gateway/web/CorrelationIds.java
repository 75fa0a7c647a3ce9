package dev.lipa.gateway.web;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.web.server.ServerWebExchange;

/** Correlation ids: a caller's own when it is safe to log and forward, otherwise a fresh random one. */
public final class CorrelationIds {

  public static final String HEADER = "X-Correlation-Id";
  static final String ATTRIBUTE = CorrelationIds.class.getName();
  private static final int MAX_LENGTH = 64;

  private CorrelationIds() {
  }

  /** The id of this exchange, or null before the correlation filter ran. */
  public static String of(ServerWebExchange exchange) {
    return exchange.getAttribute(ATTRIBUTE);
  }

  /** True for 1..64 characters of {@code [A-Za-z0-9._-]}: nothing that could forge a log line or a header. */
  static boolean isSafe(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '.' || c == '_' || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * A random id in UUID text form. ThreadLocalRandom instead of {@code UUID.randomUUID()}: correlation ids need to be
   * unique, not unguessable, and the secure generator is needlessly slow on every request.
   */
  static String next() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }
}
