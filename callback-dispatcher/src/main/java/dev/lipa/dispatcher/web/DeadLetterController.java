package dev.lipa.dispatcher.web;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.ValidationException;
import dev.lipa.dispatcher.delivery.CallbackDeliveries;
import dev.lipa.dispatcher.delivery.CallbackDeliveries.Replay;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operators' dead letters: {@code /admin/v1/callbacks} (behind {@link dev.lipa.common.servlet.OperatorTokenFilter}). Operators see every
 * organisation's dead callbacks, optionally filtered by one, and replay them.
 */
@RestController
@RequestMapping("/admin/v1/callbacks")
class DeadLetterController {

  private static final int DEFAULT_LIMIT = 100;
  private static final int MAX_LIMIT = 500;

  private final CallbackDeliveries deliveries;

  DeadLetterController(CallbackDeliveries deliveries) {
    this.deliveries = deliveries;
  }

  /** Dead callbacks, most recently dead first. */
  @GetMapping("/dead")
  Envelope<List<CallbackLog>> dead(@RequestParam(required = false) String organisationId,
      @RequestParam(required = false) Integer limit) {
    int size = limit == null ? DEFAULT_LIMIT : limit;
    if (size < 1 || size > MAX_LIMIT) {
      throw ValidationException.of("limit", "limit must be between 1 and " + MAX_LIMIT);
    }
    OrganisationId organisation = organisationId == null || organisationId.isBlank() ? null
        : OrganisationId.of(organisationId);
    return Envelope.ok("Dead callbacks fetched",
        deliveries.dead(organisation, size).stream().map(CallbackLog::of).toList());
  }

  /** Puts a dead callback back on a fresh schedule, first attempt now. */
  @PostMapping("/{callbackId}/replay")
  ResponseEntity<Envelope<CallbackLog>> replay(@PathVariable String callbackId) {
    CallbackLog replayed = switch (deliveries.replay(callbackId)) {
      case Replay.Scheduled(var view) -> CallbackLog.of(view);
      case Replay.NotDead() ->
          throw ApiException.conflict("only a DEAD callback can be replayed; merchants may redeliver any callback");
      case Replay.NotFound() -> throw ApiException.notFound("callback not found");
    };
    return ResponseEntity.status(HttpStatus.ACCEPTED)
        .body(Envelope.of(HttpStatus.ACCEPTED, "Replay scheduled", replayed));
  }
}
