package dev.lipa.rails.daraja;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One {@link DarajaClient} per configured shortcode, kept while the shortcode's configuration stays at the same version
 * and replaced when the operator changes it. All clients share one circuit breaker registry (a breaker is per API
 * family, not per client, and survives a client's replacement) and one {@link SharedTokens}: clients of the same
 * Daraja app use its one token, also across a client's replacement, and across replicas when the store is shared.
 */
public final class DarajaClients implements AutoCloseable {

  private record Held(long version, DarajaClient client) {
  }

  private final CircuitBreakerRegistry breakers;
  private final Clock clock;
  private final SharedTokens tokens;
  private final Map<String, Held> clients = new ConcurrentHashMap<>();

  /** Clients whose tokens are kept in this JVM's memory (one replica). */
  public DarajaClients(CircuitBreakerRegistry breakers, Clock clock) {
    this(breakers, clock, SharedTokens.inMemory());
  }

  /** Clients whose tokens are kept in {@code tokens} (a service's database, for all its replicas). */
  public DarajaClients(CircuitBreakerRegistry breakers, Clock clock, SharedTokens tokens) {
    this.breakers = breakers;
    this.clock = clock;
    this.tokens = tokens;
  }

  /** The client of {@code shortcode} at {@code version}; {@code config} is asked only when a new client is needed. */
  public DarajaClient client(String shortcode, long version, Supplier<DarajaConfig> config) {
    Held held = clients.compute(shortcode, (key, current) -> {
      if (current != null && current.version() == version) {
        return current;
      }
      if (current != null) {
        current.client().close();
      }
      return new Held(version, new DarajaClient(config.get(), breakers, clock, tokens));
    });
    return held.client();
  }

  /** {@code base} and {@code path} with exactly one slash between them. */
  public static String join(URI base, String path) {
    return DarajaHttp.join(base, path);
  }

  @Override
  public void close() {
    clients.values().forEach(h -> h.client().close());
    clients.clear();
  }
}
