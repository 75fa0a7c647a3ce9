package dev.lipa.payouts.requests;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Runs a request that moves money at most once: a repeat of an earlier request (same referenceId, or same
 * Idempotency-Key) is answered with the record that request created, and never creates one itself.
 *
 * <p>The record is found first; when there is none, {@code create} stores a new one (an insert that the unique
 * indexes of {@link RequestKeys} allow once) and carries it out. When a concurrent repeat wins that insert,
 * {@code create} throws {@link RepeatedRequestException} having moved nothing, and the winner's record is looked up
 * again. When the earlier record vanishes in between (it was refused and deleted), the request tries afresh.
 */
public final class OnceOnly {

  private static final int ATTEMPTS = 3;

  private OnceOnly() {
  }

  /**
   * @param earlier finds the record a request with the same referenceId or key created
   * @param pending whether such a record is still being carried out (a repeat is then told to come back: 409)
   * @param create stores and carries out a new record; throws {@link RepeatedRequestException} when it lost the insert
   * @throws RequestConflictException for a repeat with another body, or of a request still running
   */
  public static <T> Result<T> run(RequestIdentity identity,
      Function<RequestIdentity, Optional<RequestKeys.Match<T>>> earlier, Predicate<T> pending, Supplier<T> create) {
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      Optional<RequestKeys.Match<T>> found = earlier.apply(identity);
      if (found.isPresent()) {
        RequestKeys.Match<T> match = found.get();
        if (!match.sameBodyAs(identity)) {
          throw RequestConflictException.differentBody(match, identity);
        }
        if (pending.test(match.record())) {
          throw RequestConflictException.inFlight(match);
        }
        return new Result<>(match.record(), true);
      }
      try {
        return new Result<>(create.get(), false);
      } catch (RepeatedRequestException e) {
        // a concurrent repeat stored it first: answer as that one does
      }
    }
    // the earlier record was stored and deleted (refused) under us each time: let the client try again
    throw RequestConflictException.inFlight(identity.referenceId() != null);
  }

  /** The record a request created now ({@code replayed} false) or an earlier identical request created. */
  public record Result<T>(T record, boolean replayed) {
  }
}
