package dev.lipa.auth.keys;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.lipa.auth.AuthProperties;
import dev.lipa.common.security.JwksKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The service's ES256 keys, read from the store (so every replica follows a rotation another one started): the ACTIVE
 * key signs, every published key verifies and appears in the JWKS. A rotation stores a NEXT key that is published at
 * once and signs only after {@code lipa.auth.signing-keys.lead}; the key it replaces stays published until the last
 * token it signed has expired, then is retired. The first key is generated on the very first start.
 */
@Component
public class SigningKeys {

  private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);
  // verifiers accept a token up to a minute past its exp (common's TokenVerifier), so a key stays that much longer
  static final Duration VERIFIER_CLOCK_ALLOWANCE = Duration.ofSeconds(60);
  private static final Duration MIN_RELOAD_INTERVAL = Duration.ofSeconds(10);

  private final SigningKeyStore store;
  private final Clock clock;
  private final Duration lead;
  private final Duration reloadInterval;
  private final Duration retireAfter;
  private final AtomicLong generation = new AtomicLong();
  private final Map<String, Active> signers = new ConcurrentHashMap<>();
  private volatile Snapshot snapshot;

  SigningKeys(SigningKeyStore store, SigningKeySettings settings, AuthProperties properties, Clock clock) {
    this.store = store;
    this.clock = clock;
    this.lead = settings.lead();
    this.reloadInterval = settings.reloadInterval();
    Duration longestToken = properties.refreshTokenTtl().compareTo(properties.accessTokenTtl()) > 0
        ? properties.refreshTokenTtl() : properties.accessTokenTtl();
    this.retireAfter = longestToken.plus(VERIFIER_CLOCK_ALLOWANCE);
    Instant now = clock.instant();
    if (store.all().isEmpty() && store.insertFirst(generate(), now)) {
      log.info("generated the first signing key");
    }
    reload(now);
    log.info("signing tokens with key {}", active().kid());
  }

  /** The key new tokens are signed with now. */
  public Active active() {
    Instant now = clock.instant();
    Snapshot current = current(now);
    SigningKey key = current.timeline().signing(now)
        .filter(SigningKey::hasPrivateKey)
        // a replica whose clock runs ahead may have erased the private half already: sign with the newest key that
        // still has one (published well before it signs, so verifiers know it)
        .or(() -> current.timeline().keys().reversed().stream()
            .filter(k -> k.hasPrivateKey() && k.retiredAt() == null).findFirst())
        .orElseThrow(() -> new IllegalStateException("no signing key with a private half is stored"));
    return signers.computeIfAbsent(key.kid(), kid -> signer(key));
  }

  /** The public keys for {@code /.well-known/jwks.json}: NEXT, ACTIVE and RETIRING ones. */
  public JWKSet publicKeySet() {
    return new JWKSet(new ArrayList<JWK>(current(clock.instant()).published().values()));
  }

  /** The published public key with this id, or null; an unknown id rereads the store, at most every 10 s. */
  public ECKey publicKey(String kid) {
    Snapshot current = current(clock.instant());
    ECKey key = current.published().get(kid);
    if (key == null) {
      Instant now = clock.instant();
      synchronized (this) {
        if (!now.isBefore(snapshot.loadedAt().plus(MIN_RELOAD_INTERVAL))) {
          reload(now);
        }
      }
      key = snapshot.published().get(kid);
    }
    return key;
  }

  /** The published keys in the shape {@link dev.lipa.common.security.TokenVerifier} reads keys from. */
  public JwksKeys asJwksKeys() {
    return new LocalJwksKeys(this, clock);
  }

  long generation() {
    return generation.get();
  }

  /**
   * Starts a rotation: a new key, published from now, signing from now + lead. One rotation at a time: while a NEXT
   * key waits, or when another replica's rotation wins the race, this one is refused.
   *
   * @throws RotationUnderWayException when a NEXT key exists already
   */
  SigningKeyView rotate() {
    Instant now = clock.instant();
    KeyTimeline timeline = timeline(store.all());
    SigningKey latest = timeline.latest().orElseThrow(() -> new IllegalStateException("no signing key is stored"));
    if (latest.activatesAt().isAfter(now)) {
      throw new RotationUnderWayException(view(latest, timeline, now));
    }
    ECKey key = generate();
    boolean stored = store.insertNext(key, latest.kid(), now.plus(lead), now);
    synchronized (this) {
      reload(now);
    }
    KeyTimeline after = snapshot.timeline();
    SigningKey next = after.keys().stream().filter(k -> latest.kid().equals(k.follows())).findFirst()
        .orElseThrow(() -> new IllegalStateException("the successor of key " + latest.kid() + " vanished"));
    if (!stored) {
      throw new RotationUnderWayException(view(next, after, now));
    }
    log.info("signing-key rotation: key {} is published now and signs from {}; key {} stays published until {}",
        next.kid(), next.activatesAt(), latest.kid(), after.retiresAt(latest));
    return view(next, after, now);
  }

  /** Every key, newest first, with its status and times (never private material). */
  List<SigningKeyView> list() {
    Instant now = clock.instant();
    KeyTimeline timeline = timeline(store.all());
    return timeline.keys().reversed().stream().map(k -> view(k, timeline, now)).toList();
  }

  private Snapshot current(Instant now) {
    Snapshot current = snapshot;
    if (now.isBefore(current.loadedAt().plus(reloadInterval))) {
      return current;
    }
    synchronized (this) {
      if (!now.isBefore(snapshot.loadedAt().plus(reloadInterval))) {
        reload(now);
      }
      return snapshot;
    }
  }

  /**
   * Rereads the keys, and does the housekeeping their times call for (any replica may, each write is idempotent):
   * a key that stopped signing loses its private half; a key whose last token has expired is retired.
   */
  private synchronized void reload(Instant now) {
    KeyTimeline timeline = timeline(store.all());
    boolean changed = false;
    for (SigningKey key : timeline.keys()) {
      SigningKeyStatus status = timeline.status(key, now);
      if (status == SigningKeyStatus.RETIRED && key.retiredAt() == null) {
        if (store.retire(key.kid(), now)) {
          changed = true;
          log.info("signing key {} retired: the last token it signed has expired", key.kid());
        }
      } else if (status == SigningKeyStatus.RETIRING && key.hasPrivateKey()
          && !now.isBefore(timeline.deactivatesAt(key).plus(VERIFIER_CLOCK_ALLOWANCE))) {
        changed |= store.erasePrivateKey(key.kid());
      }
    }
    if (changed) {
      timeline = timeline(store.all());
    }
    Map<String, ECKey> published = timeline.published(now).stream()
        .collect(Collectors.toUnmodifiableMap(SigningKey::kid, SigningKey::publicKey));
    Snapshot previous = snapshot;
    if (previous == null || !published.keySet().equals(previous.published().keySet())) {
      generation.incrementAndGet();
    }
    snapshot = new Snapshot(timeline, published, now);
    signers.keySet().retainAll(published.keySet());
  }

  private KeyTimeline timeline(List<SigningKey> keys) {
    return new KeyTimeline(keys, retireAfter);
  }

  private Active signer(SigningKey key) {
    try {
      return new Active(key.kid(), new ECDSASigner(store.privateKey(key)));
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign with key " + key.kid(), e);
    }
  }

  private static SigningKeyView view(SigningKey key, KeyTimeline timeline, Instant now) {
    return new SigningKeyView(key.kid(), "ES256", timeline.status(key, now), key.createdAt(), key.activatesAt(),
        timeline.deactivatesAt(key), timeline.retiresAt(key), key.retiredAt());
  }

  static ECKey generate() {
    try {
      return new ECKeyGenerator(Curve.P_256)
          .keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.ES256)
          .keyIDFromThumbprint(true)
          .generate();
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate a P-256 key", e);
    }
  }

  /** The signing half of the active key; {@link ECDSASigner} is safe to share between threads. */
  public record Active(String kid, JWSSigner signer) {
  }

  /** What the last read of the store showed: the keys' order and the public keys published then. */
  private record Snapshot(KeyTimeline timeline, Map<String, ECKey> published, Instant loadedAt) {
  }
}
