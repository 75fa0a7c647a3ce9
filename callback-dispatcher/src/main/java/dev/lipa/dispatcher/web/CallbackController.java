package dev.lipa.dispatcher.web;

import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.ValidationException;
import dev.lipa.dispatcher.delivery.CallbackDeliveries;
import dev.lipa.dispatcher.delivery.DeliveryView;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The merchant's delivery log and redelivery: {@code /api/v1/callbacks}. */
@RestController
@RequestMapping("/api/v1/callbacks")
class CallbackController {

  private static final int MAX_ID_LENGTH = 100;

  private final CallbackDeliveries deliveries;

  CallbackController(CallbackDeliveries deliveries) {
    this.deliveries = deliveries;
  }

  /** Every callback of the caller's organisation for one requestId, with its attempts. */
  @GetMapping
  Envelope<List<CallbackLog>> list(@RequestParam(required = false) String requestId, HttpServletRequest request) {
    if (requestId == null || requestId.isBlank()) {
      throw ValidationException.of("requestId", "requestId is required");
    }
    if (requestId.length() > MAX_ID_LENGTH) {
      throw ValidationException.of("requestId", "requestId must be at most " + MAX_ID_LENGTH + " characters");
    }
    List<CallbackLog> callbacks = deliveries.forRequest(Caller.organisation(request), requestId).stream()
        .map(CallbackLog::of).toList();
    return Envelope.ok("Callbacks fetched", callbacks);
  }

  /** A new attempt now (and a fresh schedule after it), whatever the callback's state. */
  @PostMapping("/{callbackId}/redeliver")
  ResponseEntity<Envelope<CallbackLog>> redeliver(@PathVariable String callbackId, HttpServletRequest request) {
    DeliveryView view = (callbackId.length() > MAX_ID_LENGTH ? Optional.<DeliveryView>empty()
        : deliveries.redeliver(Caller.organisation(request), callbackId))
        .orElseThrow(() -> ApiException.notFound("callback not found"));
    return ResponseEntity.status(HttpStatus.ACCEPTED)
        .body(Envelope.of(HttpStatus.ACCEPTED, "Redelivery scheduled", CallbackLog.of(view)));
  }
}
