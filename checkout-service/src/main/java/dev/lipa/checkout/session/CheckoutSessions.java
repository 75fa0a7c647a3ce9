package dev.lipa.checkout.session;

import dev.lipa.checkout.CheckoutProperties;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.once.CreateOnce;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Origin;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The checkout use cases: create and read sessions, run payment attempts, apply rail outcomes and expire sessions.
 * Every change reads the session, applies one or more transitions of the aggregate and writes them with a
 * compare-and-set; when another writer got there first the session is read again and the change decided afresh.
 */
@Service
public class CheckoutSessions {

  /** {@code cs_} and 32 base62 characters: about 190 bits from a CSPRNG, so references cannot be guessed. */
  public static final String REF_PATTERN = "cs_[0-9A-Za-z]{32}";
  private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  private static final int WRITE_ATTEMPTS = 5;
  private static final Logger log = LoggerFactory.getLogger(CheckoutSessions.class);

  private final CheckoutSessionStore store;
  private final CheckoutProperties properties;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public CheckoutSessions(CheckoutSessionStore store, CheckoutProperties properties, Clock clock) {
    this.store = store;
    this.properties = properties;
    this.clock = clock;
  }

  /**
   * Creates a PENDING session with its event (common's {@link CreateOnce}): a retry under the same Idempotency-Key
   * claim gives back the session its first try made ({@link Creation.Replayed}), or a {@link Creation.Conflict} when
   * the body differs. A checkoutRef that collides (about 2^-190) is minted again.
   */
  public Creation<CheckoutSession> create(OrganisationId organisationId, CreateSessionRequest request, String deviceId,
      Origin origin) {
    Instant now = now();
    return CreateOnce.<CheckoutSession>of(origin)
        .byIdempotencyKey(key -> store.findByIdempotencyKey(organisationId, key))
        .create(() -> CheckoutSession.create(new CheckoutSession.Details(UUID.randomUUID(), organisationId,
            newRef(), request.amount(), request.currencyCode(), request.description(), request.successUrl(),
            request.cancelUrl(), request.paymentMethods(), request.externalReference(), request.customerEmail(),
            request.customerPhone(), request.paymentReference(), request.callbackUrl(), deviceId, now,
            now.plus(properties.sessionLifetime()))), session -> store.insert(session, origin));
  }

  /** A merchant's own session, expired first if its lifetime is over. */
  public Optional<CheckoutSession> find(OrganisationId organisationId, UUID id) {
    return store.find(organisationId, id).map(s -> expireIfDue(s, () -> store.find(organisationId, id)));
  }

  /** The session behind a hosted page reference, expired first if its lifetime is over. */
  public Optional<CheckoutSession> findByRef(String checkoutRef) {
    if (checkoutRef == null || !checkoutRef.matches(REF_PATTERN)) {
      return Optional.empty();
    }
    return store.findByRef(checkoutRef).map(s -> expireIfDue(s, () -> store.findByRef(checkoutRef)));
  }

  public int maxAttempts() {
    return properties.maxAttempts();
  }

  /**
   * Applies {@code transition} to the session behind the reference and writes it. The transition may throw
   * {@link IllegalTransitionException} (nothing is written). Returns the session as written.
   */
  public CheckoutSession change(String checkoutRef, Consumer<CheckoutSession> transition) {
    return change(() -> findByRef(checkoutRef).orElseThrow(() -> new UnknownSessionException()), transition);
  }

  /** As {@link #change(String, Consumer)} for a session known by organisation and id (rail outcomes). */
  public CheckoutSession change(OrganisationId organisationId, UUID id, Consumer<CheckoutSession> transition) {
    return change(() -> find(organisationId, id).orElseThrow(() -> new UnknownSessionException()), transition);
  }

  private CheckoutSession change(Supplier<CheckoutSession> loader, Consumer<CheckoutSession> transition) {
    for (int attempt = 1; ; attempt++) {
      CheckoutSession session = loader.get();
      transition.accept(session);
      if (session.events().isEmpty() || store.save(session)) {
        return session;
      }
      if (attempt == WRITE_ATTEMPTS) {
        throw new IllegalTransitionException("session " + session.id() + " keeps changing under us");
      }
    }
  }

  /** Expires every session past its lifetime (the scheduled job; safe on every replica: each write is a CAS). */
  public int expireDue(int limit) {
    Instant now = now();
    int expired = 0;
    List<CheckoutSession> due = store.dueBefore(now, limit);
    for (CheckoutSession session : due) {
      if (session.isDueToExpire(now, properties.actionGrace())) {
        session.expire(now, properties.actionGrace());
        if (store.save(session)) {
          expired++;
        }
      }
    }
    return expired;
  }

  private CheckoutSession expireIfDue(CheckoutSession session, Supplier<Optional<CheckoutSession>> reload) {
    CheckoutSession current = session;
    for (int attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      Instant now = now();
      if (!current.isDueToExpire(now, properties.actionGrace())) {
        return current;
      }
      current.expire(now, properties.actionGrace());
      if (store.save(current)) {
        return current;
      }
      Optional<CheckoutSession> again = reload.get();
      if (again.isEmpty()) {
        return session;
      }
      current = again.get();
    }
    log.warn("could not expire session {} after {} tries", session.id(), WRITE_ATTEMPTS);
    return current;
  }

  /** Store times have millisecond precision: the aggregate uses the same. */
  public Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  private String newRef() {
    StringBuilder ref = new StringBuilder("cs_");
    for (int i = 0; i < 32; i++) {
      ref.append(BASE62.charAt(random.nextInt(BASE62.length())));
    }
    return ref.toString();
  }

  /** No session has this reference (or id, for this organisation). */
  public static final class UnknownSessionException extends RuntimeException {
    public UnknownSessionException() {
      super("checkout session not found", null, false, false);
    }
  }
}
