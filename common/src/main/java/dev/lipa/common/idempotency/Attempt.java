package dev.lipa.common.idempotency;

/** What {@link IdempotencyKeys#begin} found for a request with an idempotency key. */
public sealed interface Attempt {

  /** The key is the caller's now: execute the request, then complete or release the claim. */
  record Claimed(IdempotencyClaim claim) implements Attempt {
  }

  /** The key completed before with the same body: answer with the stored response. */
  record Replay(StoredResponse response) implements Attempt {
  }

  /** Another request with the key (and the same body) is executing right now. */
  record InFlight() implements Attempt {
  }

  /** The key was used with a different body. */
  record Mismatch() implements Attempt {
  }
}
