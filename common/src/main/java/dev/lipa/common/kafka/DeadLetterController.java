package dev.lipa.common.kafka;

import com.mongodb.MongoException;
import dev.lipa.common.store.StoreUnavailable;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.FieldErrors;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operators' view of this service's dead letters, {@code /admin/v1/dead-letters} (behind the operator token, as
 * every {@code /admin/**}; the gateway serves it as {@code /admin/v1/dead-letters/<service>/...}): list, read, replay.
 */
@RestController
@RequestMapping("/admin/v1/dead-letters")
class DeadLetterController {

  static final int DEFAULT_SIZE = 100;
  static final int MAX_SIZE = 500;
  static final int MAX_PAGE = 10_000;

  private final DeadLetterStore store;
  private final DeadLetterReplayer replayer;

  DeadLetterController(DeadLetterStore store, DeadLetterReplayer replayer) {
    this.store = store;
    this.replayer = replayer;
  }

  /** Dead letters, most recently dead first, optionally of one status or one listener. */
  @GetMapping
  Envelope<List<DeadLetter>> list(@RequestParam(required = false) String status,
      @RequestParam(required = false) String listener, @RequestParam(required = false) Integer page,
      @RequestParam(required = false) Integer size) {
    FieldErrors errors = new FieldErrors();
    DeadLetter.Status wanted = null;
    if (status != null && !status.isBlank()) {
      try {
        wanted = DeadLetter.Status.valueOf(status.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        errors.add("status", "status must be DEAD or REPLAYED");
      }
    }
    int pageNumber = page == null ? 0 : page;
    if (pageNumber < 0 || pageNumber > MAX_PAGE) {
      errors.add("page", "page must be between 0 and " + MAX_PAGE);
    }
    int pageSize = size == null ? DEFAULT_SIZE : size;
    if (pageSize < 1 || pageSize > MAX_SIZE) {
      errors.add("size", "size must be between 1 and " + MAX_SIZE);
    }
    errors.throwIfAny();
    String only = listener == null || listener.isBlank() ? null : listener.strip();
    return Envelope.ok("Dead letters fetched", store.list(wanted, only, pageNumber, pageSize));
  }

  @GetMapping("/{id}")
  Envelope<DeadLetter> one(@PathVariable String id) {
    return Envelope.ok("Dead letter fetched", store.find(id).orElseThrow(DeadLetterController::notFound));
  }

  /**
   * Runs the record through its listener again (see {@link DeadLetterReplayer}): 200 when it got through, 422 when
   * the listener still refuses it (the new failure is recorded), 503 when the listener failed otherwise (nothing
   * changed), 409 when its listener no longer runs here.
   */
  @PostMapping("/{id}/replay")
  ResponseEntity<Envelope<DeadLetter>> replay(@PathVariable String id) {
    DeadLetterReplayer.Replay replay = replayer.replay(id).orElseThrow(DeadLetterController::notFound);
    return switch (replay.outcome()) {
      case REPLAYED -> ResponseEntity.ok(Envelope.ok("Dead letter replayed", replay.deadLetter()));
      case STILL_UNPROCESSABLE -> ResponseEntity.status(HttpStatus.UNPROCESSABLE_CONTENT).body(Envelope.of(
          HttpStatus.UNPROCESSABLE_CONTENT, "the listener still cannot process the record: " + replay.failure(),
          replay.deadLetter()));
      case LISTENER_FAILED -> throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE,
          "the listener could not finish (" + replay.failure() + "); nothing changed, try again later");
      case NO_SUCH_LISTENER -> throw ApiException.conflict(
          "listener " + replay.deadLetter().listener() + " does not run in this service");
    };
  }

  /** The service's own store is down: the operator may try again; never a 500. */
  @ExceptionHandler(MongoException.class)
  ResponseEntity<Envelope<Void>> storeUnavailable(MongoException e) {
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .body(Envelope.error(HttpStatus.SERVICE_UNAVAILABLE, StoreUnavailable.MESSAGE));
  }

  private static ApiException notFound() {
    return ApiException.notFound("dead letter not found");
  }
}
