package dev.lipa.dispatcher.signing;

import dev.lipa.common.ids.OrganisationId;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Each organisation's signing secrets: issued, rotated, and read for signing.
 *
 * <p>Every callback is signed, so an organisation without a secret gets one the first time a callback of theirs is
 * sent. That secret is never shown (a secret is shown once, when issued through the API, and a lazily created one
 * was issued to nobody): the merchant calls {@code POST /api/v1/callbacks/signing-secret} to obtain one. Because
 * nobody can hold the lazily created secret, that first call replaces it without a rotation window; every later
 * call rotates: the previous secret keeps signing too (both signatures sent) until the rotation window ends.
 */
@Component
public class SigningSecrets {

  private final SigningSecretStore store;
  private final SigningProperties properties;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<OrganisationId, CachedKeys> cache = new ConcurrentHashMap<>();

  SigningSecrets(SigningSecretStore store, SigningProperties properties, Clock clock) {
    this.store = store;
    this.properties = properties;
    this.clock = clock;
  }

  /** A secret as issued: shown to the merchant this once. */
  public record IssuedSecret(String secret, Instant createdAt, Instant previousSecretExpiresAt) {
  }

  /** What may be shown about an organisation's secret at any time (never the secret). */
  public record SecretMetadata(Instant createdAt, boolean issued, Instant rotationEndsAt) {
  }

  /** Issues the organisation's first secret, or rotates to a new one; the only time a secret is shown. */
  public IssuedSecret issue(OrganisationId organisationId) {
    for (int tries = 0; tries < 5; tries++) {
      Instant now = clock.instant();
      String secret = WebhookSignature.newSecret(random);
      String sealed = store.seal(organisationId, secret);
      Optional<SigningSecretStore.Stored> existing = store.find(organisationId);
      if (existing.isEmpty()) {
        SigningSecretStore.Stored stored = store.createIfAbsent(organisationId, sealed, now, true);
        if (stored.current().equals(sealed)) {
          cache.remove(organisationId);
          return new IssuedSecret(secret, now, null);
        }
        continue; // a callback created one lazily at this very moment: rotate that one instead
      }
      SigningSecretStore.Stored current = existing.get();
      String previous;
      Instant previousExpiresAt;
      if (current.revealed()) {
        previous = current.current();
        previousExpiresAt = now.plus(properties.rotationWindow());
      } else {
        // nobody holds a never-shown secret; keep whatever rotation was already under way
        boolean rotating = current.previous() != null && current.previousExpiresAt().isAfter(now);
        previous = rotating ? current.previous() : null;
        previousExpiresAt = rotating ? current.previousExpiresAt() : null;
      }
      if (properties.rotationWindow().isZero()) {
        previous = null;
      }
      if (store.replace(organisationId, current.current(), sealed, now, previous, previousExpiresAt)) {
        cache.remove(organisationId);
        return new IssuedSecret(secret, now, previous == null ? null : previousExpiresAt);
      }
    }
    throw new IllegalStateException("signing secret of " + organisationId + " changed concurrently too often");
  }

  public Optional<SecretMetadata> metadata(OrganisationId organisationId) {
    Instant now = clock.instant();
    return store.find(organisationId).map(stored -> new SecretMetadata(stored.createdAt(), stored.revealed(),
        stored.previousExpiresAt() != null && stored.previousExpiresAt().isAfter(now)
            ? stored.previousExpiresAt() : null));
  }

  /**
   * The HMAC keys a callback of this organisation is signed with right now: the current one first, then the previous
   * one while its rotation window lasts. Creates a first secret when there is none.
   */
  List<byte[]> keys(OrganisationId organisationId) {
    Instant now = clock.instant();
    CachedKeys cached = cache.get(organisationId);
    if (cached == null || !now.isBefore(cached.loadedAt().plus(properties.cacheTtl()))) {
      cached = load(organisationId, now);
      cache.put(organisationId, cached);
    }
    List<byte[]> keys = new ArrayList<>(2);
    keys.add(cached.current());
    if (cached.previous() != null && now.isBefore(cached.previousExpiresAt())) {
      keys.add(cached.previous());
    }
    return keys;
  }

  private CachedKeys load(OrganisationId organisationId, Instant now) {
    SigningSecretStore.Stored stored = store.find(organisationId).orElseGet(() -> {
      String secret = WebhookSignature.newSecret(random);
      return store.createIfAbsent(organisationId, store.seal(organisationId, secret), now, false);
    });
    byte[] current = WebhookSignature.key(store.open(organisationId, stored.current()));
    byte[] previous = stored.previous() == null ? null
        : WebhookSignature.key(store.open(organisationId, stored.previous()));
    return new CachedKeys(current, previous, stored.previousExpiresAt(), now);
  }

  private record CachedKeys(byte[] current, byte[] previous, Instant previousExpiresAt, Instant loadedAt) {
  }
}
