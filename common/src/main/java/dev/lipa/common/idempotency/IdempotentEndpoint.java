package dev.lipa.common.idempotency;

import dev.lipa.common.rail.RailUnavailableException;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.ValidationException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs a servlet endpoint's action under the request's {@code Idempotency-Key}, the way Stripe does:
 * <ul>
 *   <li>no key: the action runs as it is;</li>
 *   <li>a new key: the action runs; a 2xx response is stored (status and JSON body) and replayed to every repeat with
 *       the same key and the same body, with the header {@code Idempotent-Replayed: true};</li>
 *   <li>the same key with a different body: 409; the same key while the first request still runs: 409 ("still being
 *       processed"), nothing stored;</li>
 *   <li>a refusal (a 4xx answer, or an {@link ApiException} with a 4xx status, a {@link ValidationException} or a
 *       {@link RailUnavailableException} thrown by the action, which all come before any write): the key is released, nothing is kept, and the client may retry, with another body
 *       too. Refusals are not stored (unlike Stripe's executed 4xx) because a refused request must write nothing and
 *       our refusals are functions of the body and the stored records, so a retry gets the same answer computed
 *       again. Validate the body <em>before</em> calling {@link #execute}, as Stripe does, so that a validation
 *       failure never touches the key store.</li>
 *   <li>a failure (a 5xx answer or any other exception): the request may have written its record before it failed
 *       (a store that applied an insert and then timed out), so the key is kept with its record key and only its
 *       lease ends: a retry with the same body runs at once and finds that record through its unique record key,
 *       instead of creating (and paying) a second one.</li>
 * </ul>
 * Keys are scoped by organisation and by {@link IdempotentRequest#scope()}. The action receives the claim (null
 * without a key) and must stamp the record it creates with {@link IdempotencyClaim#recordKey()} under a unique
 * index, and answer with the record's original response when that index says the record exists already.
 */
public final class IdempotentEndpoint {

  public static final String IN_FLIGHT_MESSAGE = "a request with this Idempotency-Key is still being processed";
  public static final String MISMATCH_MESSAGE =
      "this Idempotency-Key was already used with a different request body";

  private static final Logger log = LoggerFactory.getLogger(IdempotentEndpoint.class);

  private final IdempotencyKeys keys;
  private final JsonMapper json;

  public IdempotentEndpoint(IdempotencyKeys keys, JsonMapper json) {
    this.keys = keys;
    this.json = json;
  }

  /** See the class comment; throws {@link ApiException} (409) for an in-flight or mismatched key. */
  public ResponseEntity<?> execute(IdempotentRequest request, Function<IdempotencyClaim, ResponseEntity<?>> action) {
    if (!request.hasKey()) {
      return action.apply(null);
    }
    IdempotencyClaim claim;
    switch (keys.begin(request)) {
      case Attempt.Replay replay -> {
        return replay(replay.response());
      }
      case Attempt.InFlight ignored -> throw ApiException.conflict(IN_FLIGHT_MESSAGE);
      case Attempt.Mismatch ignored -> throw ApiException.conflict(MISMATCH_MESSAGE);
      case Attempt.Claimed claimed -> claim = claimed.claim();
    }
    ResponseEntity<?> response;
    try {
      response = action.apply(claim);
    } catch (RuntimeException | Error e) {
      if (isRefusal(e)) {
        release(claim);
      } else {
        abandon(claim);
      }
      throw e;
    }
    if (response.getStatusCode().is2xxSuccessful()) {
      try {
        keys.complete(claim, new StoredResponse(response.getStatusCode().value(),
            json.writeValueAsString(response.getBody())));
      } catch (RuntimeException e) {
        // the work is done and answered; a retry waits for the lease, takes the key over and the record's unique
        // key turns it into the original answer
        log.warn("could not store the response of idempotency key {}: {}", claim.id(), e.toString());
      }
    } else if (response.getStatusCode().is4xxClientError()) {
      release(claim);
    } else {
      abandon(claim);
    }
    return response;
  }

  /** A stored response as it was first sent, marked as a replay. */
  public static ResponseEntity<String> replay(StoredResponse stored) {
    return ResponseEntity.status(stored.status())
        .contentType(MediaType.APPLICATION_JSON)
        .header(IdempotencyKeys.REPLAYED_HEADER, "true")
        .body(stored.body());
  }

  /** A refusal writes nothing: the action refused the request before any write (see the class comment). */
  private static boolean isRefusal(Throwable e) {
    return e instanceof ValidationException || e instanceof ApiException api && api.status().is4xxClientError()
        || e instanceof RailUnavailableException;
  }

  private void abandon(IdempotencyClaim claim) {
    try {
      keys.abandon(claim);
    } catch (RuntimeException e) {
      // the lease runs out on its own and a retry takes the key over, with the same record key
      log.warn("could not end the lease of idempotency key {}: {}", claim.id(), e.toString());
    }
  }

  private void release(IdempotencyClaim claim) {
    try {
      keys.release(claim);
    } catch (RuntimeException e) {
      // the lease runs out on its own and a retry takes the key over
      log.warn("could not release idempotency key {}: {}", claim.id(), e.toString());
    }
  }
}
