package dev.lipa.common.once;

import dev.lipa.common.idempotency.IdempotentEndpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared "create once" step of every record a merchant request creates (an STK push, a payout, a checkout
 * session): mint the record, insert it, and when a unique index says an earlier request holds its referenceId or
 * Idempotency-Key, answer as that request was answered if the bodies are the same ({@link Creation.Replayed}), or
 * with a {@link Creation.Conflict} if they differ. The unique indexes decide, so concurrent repeats create one record.
 * A minted id another replica holds already is minted again (a few times).
 *
 * <p>An effect may come before the insert ({@link #after}): payouts reserve the amount, STK pushes take a prompt of the
 * phone number's allowance. When the effect refuses (throws), an earlier identical request is still answered as it
 * was; otherwise the refusal propagates. Whatever does not end in a new record undoes the effect: a replay or a
 * conflict at once, and a failure once the record is known to be absent. A failure after which the record may be
 * stored (a store that applied the insert and then timed out) keeps the effect, since the stored record owns it
 * (its reservation pays it); a repair job settles what stays unknown.
 *
 * <p>Earlier records are looked up in the order the lookups are given. With {@link #lookingFirst()} they are looked up
 * before the effect too, so that a sequential repeat costs no effect at all (a replayed payout reserves nothing, even
 * when the balance no longer covers it).
 *
 * @param <T> the record
 */
public final class CreateOnce<T> {

  private static final Logger log = LoggerFactory.getLogger(CreateOnce.class);
  /** Mints per request: another replica minting the same numeric id twice in a row is all but impossible. */
  static final int ID_ATTEMPTS = 3;
  private static final Supplier<Effect> NO_EFFECT = () -> () -> {
  };

  private final Origin origin;
  private final List<Lookup<T>> lookups = new ArrayList<>();
  private Supplier<Effect> effect = NO_EFFECT;
  private Predicate<T> stored = record -> true;
  private boolean lookFirst;

  private CreateOnce(Origin origin) {
    this.origin = origin;
  }

  /** A step for the request with this origin. */
  public static <T> CreateOnce<T> of(Origin origin) {
    return new CreateOnce<>(origin);
  }

  /** An effect done and how to undo it. */
  @FunctionalInterface
  public interface Effect {

    void undo();
  }

  /** Where the record an earlier request created under the same Idempotency-Key is found (skipped without a key). */
  public CreateOnce<T> byIdempotencyKey(Function<String, Optional<Earlier<T>>> find) {
    if (origin.idempotencyKey() != null) {
      lookups.add(new Lookup<>(Insert.KEY_TAKEN, IdempotentEndpoint.MISMATCH_MESSAGE,
          () -> find.apply(origin.idempotencyKey())));
    }
    return this;
  }

  /** Where the record an earlier request created with the same referenceId is found (skipped when it is null). */
  public CreateOnce<T> byReference(String referenceId, Function<String, Optional<Earlier<T>>> find) {
    if (referenceId != null) {
      lookups.add(new Lookup<>(Insert.REFERENCE_TAKEN,
          "referenceId " + referenceId + " was already used with a different request body",
          () -> find.apply(referenceId)));
    }
    return this;
  }

  /** Looks for an earlier record before the effect as well (see the class comment). */
  public CreateOnce<T> lookingFirst() {
    this.lookFirst = true;
    return this;
  }

  /**
   * Runs {@code effect} before the first insert; it returns how to undo itself, and refuses by throwing.
   * {@code stored} tells, after an insert failed, whether the record was written all the same (then the effect stays).
   */
  public CreateOnce<T> after(Supplier<Effect> effect, Predicate<T> stored) {
    this.effect = effect;
    this.stored = stored;
    return this;
  }

  /**
   * Creates the record once.
   *
   * @param mint a new record, with fresh minted ids at each call
   * @param insert writes the record stamped with the origin, and says which unique key refused it
   */
  public Creation<T> create(Supplier<T> mint, Function<T, Insert> insert) {
    if (lookFirst) {
      Optional<Creation<T>> earlier = earlier();
      if (earlier.isPresent()) {
        return earlier.get();
      }
    }
    Effect done;
    try {
      done = effect.get();
    } catch (RuntimeException refused) {
      // a refused effect (no prompt left, no balance) still answers a repeat the way the first request was answered
      Optional<Creation<T>> earlier;
      try {
        earlier = earlier();
      } catch (RuntimeException unknown) {
        refused.addSuppressed(unknown);
        throw refused;
      }
      return earlier.orElseThrow(() -> refused);
    }
    T record = null;
    Insert outcome;
    try {
      for (int attempt = 1; ; attempt++) {
        record = mint.get();
        outcome = insert.apply(record);
        if (outcome != Insert.ID_TAKEN) {
          break;
        }
        if (attempt == ID_ATTEMPTS) {
          throw new IllegalStateException("the minted id was taken " + ID_ATTEMPTS + " times in a row");
        }
        log.warn("a minted id collided with another replica's; minting another");
      }
    } catch (RuntimeException e) {
      undoUnlessStored(done, record, e);
      throw e;
    }
    if (outcome == Insert.WRITTEN) {
      return new Creation.Created<>(record);
    }
    done.undo();
    Insert taken = outcome;
    Lookup<T> lookup = lookups.stream().filter(l -> l.holder() == taken).findFirst().orElseThrow(
        () -> new IllegalStateException("the insert was refused by " + taken + ", which this request does not carry"));
    return lookup.answer(origin).orElseThrow(
        () -> new IllegalStateException("the record that holds this unique key vanished"));
  }

  /** The answer of the first earlier record found, if any. */
  private Optional<Creation<T>> earlier() {
    for (Lookup<T> lookup : lookups) {
      Optional<Creation<T>> answer = lookup.answer(origin);
      if (answer.isPresent()) {
        return answer;
      }
    }
    return Optional.empty();
  }

  /**
   * The insert failed: it may have been applied before it failed, and then the stored record owns the effect. Undo
   * only once the record is known to be absent; when even that cannot be read, the effect stays (for money, the
   * ledger's repair releases a reservation no payout owns).
   */
  private void undoUnlessStored(Effect done, T record, RuntimeException failure) {
    try {
      if (record == null || !stored.test(record)) {
        done.undo();
      }
    } catch (RuntimeException unknown) {
      failure.addSuppressed(unknown);
    }
  }

  /** One way to find an earlier record: by the key an insert may be refused on. */
  private record Lookup<T>(Insert holder, String conflict, Supplier<Optional<Earlier<T>>> find) {

    Optional<Creation<T>> answer(Origin origin) {
      return find.get().map(earlier -> origin.fingerprint().equals(earlier.fingerprint())
          ? new Creation.Replayed<>(earlier.record()) : new Creation.Conflict<>(conflict));
    }
  }
}
