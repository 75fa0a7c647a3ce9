package dev.lipa.rails.daraja;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@link SharedTokens} in one JVM's memory. Shared by the clients of one process only: with two replicas each keeps
 * its own token and each replica's refresh invalidates the other's, so a service that runs several replicas passes a
 * store in its database instead.
 */
final class InMemoryTokens implements SharedTokens {

  /** An app's state: its token (null before the first), the generation, and the live claim (null id: none). */
  private record Entry(Token token, long generation, String claimId, Instant claimUntil) {
  }

  private final Map<String, Entry> apps = new HashMap<>();

  @Override
  public synchronized Optional<Token> current(App app) {
    Entry e = apps.get(app.id());
    return e == null ? Optional.empty() : Optional.ofNullable(e.token());
  }

  @Override
  public synchronized Optional<Claim> claim(App app, long seen, Instant now, Instant until) {
    Entry e = apps.getOrDefault(app.id(), new Entry(null, 0, null, Instant.EPOCH));
    if (e.generation() != seen || now.isBefore(e.claimUntil())) {
      return Optional.empty();
    }
    String id = UUID.randomUUID().toString();
    apps.put(app.id(), new Entry(e.token(), e.generation(), id, until));
    return Optional.of(new Claim(app, id, seen, until));
  }

  @Override
  public synchronized Optional<Token> publish(Claim claim, String value, Instant issuedAt, Instant expiresAt) {
    Entry e = apps.get(claim.app().id());
    if (e == null || !claim.id().equals(e.claimId()) || e.generation() != claim.generation()) {
      return Optional.empty();
    }
    Token token = new Token(e.generation() + 1, value, issuedAt, expiresAt, false);
    apps.put(claim.app().id(), new Entry(token, token.generation(), null, Instant.EPOCH));
    return Optional.of(token);
  }

  @Override
  public synchronized void release(Claim claim) {
    Entry e = apps.get(claim.app().id());
    if (e != null && claim.id().equals(e.claimId())) {
      apps.put(claim.app().id(), new Entry(e.token(), e.generation(), null, Instant.EPOCH));
    }
  }

  @Override
  public synchronized void refuse(App app, long generation) {
    Entry e = apps.get(app.id());
    if (e != null && e.token() != null && e.generation() == generation) {
      Token t = e.token();
      apps.put(app.id(), new Entry(new Token(t.generation(), t.value(), t.issuedAt(), t.expiresAt(), true),
          e.generation(), e.claimId(), e.claimUntil()));
    }
  }
}
