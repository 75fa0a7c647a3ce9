package dev.lipa.rails.daraja;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Daraja's OAuth client-credentials token for one app, as this client uses it: the app's token from
 * {@link SharedTokens} (one for every client of the app, replicas included), kept in this JVM until shortly before it
 * expires. Daraja invalidates an app's earlier tokens whenever a new one is generated, so a refresh is one at a time:
 * inside the JVM behind a lock, and across clients by the store's claim; the others wait for its token.
 *
 * <ul>
 *   <li>A fresh token (not refused, not within the refresh margin of its own expiry) in the store is used as it is.
 *   <li>Otherwise the caller claims the refresh from the generation it saw, for the time an OAuth call may take
 *       ({@link #claimLifetime}), generates a token and publishes it. A caller that cannot claim polls the store until
 *       the new token appears or the claim ends (a claimant that died), then tries again; it gives up after two claim
 *       lifetimes.
 *   <li>A token Daraja refused is marked so in the store only while it is still the current one
 *       ({@link #invalidate}): a late refusal of a replaced token changes nothing, and the next use takes the newer.
 * </ul>
 */
final class AccessTokens {

  /** What a claim covers beyond the OAuth call's own timeouts: the store's writes around it, a pause. */
  static final Duration CLAIM_SLACK = Duration.ofSeconds(5);
  static final Duration FIRST_PAUSE = Duration.ofMillis(20);
  static final Duration LONGEST_PAUSE = Duration.ofMillis(250);
  private static final Logger log = LoggerFactory.getLogger(AccessTokens.class);

  /** Where new tokens come from: Daraja's OAuth endpoint ({@link OAuth}). */
  interface Source {
    /** A new token of the app (which invalidates its earlier ones). */
    Issued generate() throws TokenUnavailable;
  }

  /** A token as OAuth issued it: when, and when it expires ({@code expires_in} later). */
  record Issued(String value, Instant issuedAt, Instant expiresAt) {

    @Override
    public String toString() {
      return "Issued[issuedAt=" + issuedAt + ", expiresAt=" + expiresAt + "]";
    }
  }

  /** The token this JVM uses, its generation in the store, and when to stop using it. */
  private record Held(String value, long generation, Instant refreshAt) {

    @Override
    public String toString() {
      return "Held[generation=" + generation + ", refreshAt=" + refreshAt + "]";
    }
  }

  /** No token could be had; the request that needed it is not sent. */
  static final class TokenUnavailable extends Exception {
    private final Refusal refusal;

    TokenUnavailable(Refusal refusal) {
      super(refusal.message(), null, false, false);
      this.refusal = refusal;
    }

    Refusal refusal() {
      return refusal;
    }
  }

  private final SharedTokens.App app;
  private final SharedTokens store;
  private final Source oauth;
  private final Clock clock;
  private final Duration margin;
  private final Duration claimLifetime;
  private final ReentrantLock refresh = new ReentrantLock();
  private final AtomicReference<Held> held = new AtomicReference<>();

  AccessTokens(DarajaConfig config, SharedTokens store, Source oauth, Clock clock) {
    this.app = SharedTokens.App.of(config);
    this.store = store;
    this.oauth = oauth;
    this.clock = clock;
    this.margin = config.tokenRefreshMargin();
    this.claimLifetime = claimLifetime(config);
  }

  /** How long a refresh is claimed for: the OAuth call's connect and request timeouts, and {@link #CLAIM_SLACK}. */
  static Duration claimLifetime(DarajaConfig config) {
    return config.connectTimeout().plus(config.requestTimeout()).plus(CLAIM_SLACK);
  }

  /** A token that is not about to expire, from the store or from OAuth. */
  String token() throws TokenUnavailable {
    Held h = held.get();
    if (fresh(h)) {
      return h.value();
    }
    refresh.lock();
    try {
      h = held.get();
      if (fresh(h)) {
        return h.value(); // another caller of this JVM got one while we waited
      }
      Held got = obtain();
      held.set(got);
      return got.value();
    } catch (RuntimeException e) {
      // the store is away (or broken): the request is not sent, as without a token from OAuth
      log.warn("no Daraja token for shortcode {}'s app: {}", app.shortcode(), e.toString());
      throw new TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, 0, null,
          "no access token could be had: " + e.getClass().getSimpleName(), null));
    } finally {
      refresh.unlock();
    }
  }

  /**
   * Drops the token after Daraja refused it, unless it was already replaced, and marks it refused in the store if it is
   * still the store's current token: a late refusal of a replaced token changes nothing.
   */
  void invalidate(String refused) {
    Held h = held.get();
    if (h == null || !h.value().equals(refused)) {
      return;
    }
    try {
      // the store first: a caller of this JVM that reads it before the token is dropped here must not take it back
      store.refuse(app, h.generation());
    } catch (RuntimeException e) {
      // the next use may take it from the store again, be refused once more, and mark it then
      log.warn("Daraja token of shortcode {}'s app (generation {}) could not be marked refused: {}",
          app.shortcode(), h.generation(), e.getClass().getSimpleName());
    }
    held.compareAndSet(h, null);
  }

  private Held obtain() throws TokenUnavailable {
    Instant giveUpAt = clock.instant().plus(claimLifetime.multipliedBy(2));
    Duration pause = FIRST_PAUSE;
    while (true) {
      Optional<SharedTokens.Token> current = store.current(app);
      Instant now = clock.instant();
      if (current.isPresent() && current.get().usable() && now.isBefore(refreshAt(current.get()))) {
        return held(current.get());
      }
      long seen = current.map(SharedTokens.Token::generation).orElse(0L);
      Optional<SharedTokens.Claim> claim = store.claim(app, seen, now, now.plus(claimLifetime));
      if (claim.isPresent()) {
        Optional<Held> refreshed = refreshUnder(claim.get());
        if (refreshed.isPresent()) {
          return refreshed.get();
        }
      }
      if (!clock.instant().isBefore(giveUpAt)) {
        throw new TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, 0, null,
            "no new access token appeared within " + claimLifetime.multipliedBy(2), null));
      }
      if (claim.isEmpty()) {
        pause(pause); // another client refreshes: its token appears, or its claim ends
        pause = pause.multipliedBy(2);
        if (pause.compareTo(LONGEST_PAUSE) > 0) {
          pause = LONGEST_PAUSE;
        }
      }
    }
  }

  /** Generates a token under {@code claim} and publishes it; empty when another client claimed meanwhile. */
  private Optional<Held> refreshUnder(SharedTokens.Claim claim) throws TokenUnavailable {
    Issued issued;
    try {
      issued = oauth.generate();
    } catch (TokenUnavailable e) {
      store.release(claim);
      throw e;
    }
    Optional<SharedTokens.Token> published = store.publish(claim, issued.value(), issued.issuedAt(),
        issued.expiresAt());
    if (published.isEmpty()) {
      // it took longer than the claim and another client claimed since: the store's token is the one everyone uses
      // (if ours was generated later, theirs is refused once and replaced by the usual rule)
      log.warn("Daraja token of shortcode {}'s app: the refresh outlived its claim ({}); using the store's token",
          app.shortcode(), claimLifetime);
      return Optional.empty();
    }
    return Optional.of(held(published.get()));
  }

  private Held held(SharedTokens.Token token) {
    return new Held(token.value(), token.generation(), refreshAt(token));
  }

  /**
   * When to stop using a token: {@code margin} before its own expiry, whoever fetched it; a token shorter-lived than
   * twice the margin is kept for half its life.
   */
  private Instant refreshAt(SharedTokens.Token token) {
    Duration life = Duration.between(token.issuedAt(), token.expiresAt());
    Duration m = life.compareTo(margin.multipliedBy(2)) < 0 ? life.dividedBy(2) : margin;
    return token.expiresAt().minus(m);
  }

  private boolean fresh(Held h) {
    return h != null && clock.instant().isBefore(h.refreshAt());
  }

  private static void pause(Duration pause) throws TokenUnavailable {
    try {
      Thread.sleep(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, 0, null, "interrupted", null));
    }
  }
}
