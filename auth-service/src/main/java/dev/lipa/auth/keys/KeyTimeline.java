package dev.lipa.auth.keys;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The signing keys in the order they sign, and what that order means at a given instant. A key signs from its
 * {@code activatesAt} until the next key's; it stays published until {@code retireAfter} (the longest token lifetime
 * and the verifiers' clock allowance) after that, so every token it signed expires before verifiers stop trusting it.
 * Every replica derives the same statuses from the same stored times: there is no promotion to race on, and exactly
 * one key is ACTIVE at any instant.
 */
final class KeyTimeline {

  private static final Comparator<SigningKey> SIGNING_ORDER =
      Comparator.comparing(SigningKey::activatesAt).thenComparing(SigningKey::kid);

  private final List<SigningKey> keys;
  private final Duration retireAfter;

  KeyTimeline(List<SigningKey> keys, Duration retireAfter) {
    this.keys = keys.stream().sorted(SIGNING_ORDER).toList();
    this.retireAfter = retireAfter;
  }

  List<SigningKey> keys() {
    return keys;
  }

  /** The key that signs at {@code now}: the last one that has activated and was not retired. */
  Optional<SigningKey> signing(Instant now) {
    SigningKey signing = null;
    for (SigningKey key : keys) {
      if (!key.activatesAt().isAfter(now) && key.retiredAt() == null) {
        signing = key;
      }
    }
    return Optional.ofNullable(signing);
  }

  /** The key that signs last: the pending one during a rotation, otherwise the active one. */
  Optional<SigningKey> latest() {
    return keys.isEmpty() ? Optional.empty() : Optional.of(keys.getLast());
  }

  /**
   * When the key stops signing (the activation of the next key that was not retired), or null while nothing follows
   * it.
   */
  Instant deactivatesAt(SigningKey key) {
    for (int i = keys.indexOf(key) + 1; i > 0 && i < keys.size(); i++) {
      if (keys.get(i).retiredAt() == null) {
        return keys.get(i).activatesAt();
      }
    }
    return null;
  }

  /** When the last token the key signed has expired and it leaves the JWKS, or null while it may still sign. */
  Instant retiresAt(SigningKey key) {
    Instant deactivatesAt = deactivatesAt(key);
    return deactivatesAt == null ? null : deactivatesAt.plus(retireAfter);
  }

  SigningKeyStatus status(SigningKey key, Instant now) {
    if (key.retiredAt() != null) {
      return SigningKeyStatus.RETIRED;
    }
    if (key.activatesAt().isAfter(now)) {
      return SigningKeyStatus.NEXT;
    }
    Instant deactivatesAt = deactivatesAt(key);
    if (deactivatesAt == null || deactivatesAt.isAfter(now)) {
      return SigningKeyStatus.ACTIVE;
    }
    return retiresAt(key).isAfter(now) ? SigningKeyStatus.RETIRING : SigningKeyStatus.RETIRED;
  }

  /** Every key verifiers may meet at {@code now}: NEXT, ACTIVE and RETIRING ones. */
  List<SigningKey> published(Instant now) {
    return keys.stream().filter(k -> status(k, now) != SigningKeyStatus.RETIRED).toList();
  }
}
