package dev.lipa.collections.stk.web;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.stk.StkPush;
import dev.lipa.collections.stk.StkPushRequest;
import dev.lipa.collections.stk.StkPushStore;
import dev.lipa.collections.stk.StkPushes;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.FieldErrors;
import jakarta.servlet.http.HttpServletRequest;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Endpoints 4 and 5 of the spec: create an STK push, list the caller's STK pushes. */
@RestController
@RequestMapping(path = "/api/sandbox/v1/stk", produces = MediaType.APPLICATION_JSON_VALUE)
class StkPushController {

  static final int DEFAULT_PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 500;

  private final StkPushes pushes;
  private final ZoneId zone;

  StkPushController(StkPushes pushes, CollectionsProperties properties) {
    this.pushes = pushes;
    this.zone = properties.zone();
  }

  /** The body is read as a tree so that every field error is precise ({@code "10"} is not a number). */
  @PostMapping(path = "/new", consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Envelope<Accepted>> create(@RequestBody JsonNode body, HttpServletRequest request) {
    StkPushRequest command = StkPushRequest.from(body);
    StkPush push;
    try {
      push = pushes.accept(Caller.organisationId(request), command);
    } catch (StkPushStore.DuplicateReferenceException e) {
      throw ApiException.conflict(e.getMessage());
    }
    return ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("STK push accepted for processing",
        new Accepted(push.requestId().toString(), push.details().phoneNumber(), push.details().amount())));
  }

  /** Newest first; the spec shows no paging, so {@code page} and {@code size} are optional and bounded. */
  @GetMapping("/all")
  Envelope<List<StkPushView>> all(@RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "" + DEFAULT_PAGE_SIZE) int size, HttpServletRequest request) {
    FieldErrors errors = new FieldErrors();
    if (page < 0) {
      errors.add("page", "page must be 0 or more");
    }
    if (size < 1 || size > MAX_PAGE_SIZE) {
      errors.add("size", "size must be between 1 and " + MAX_PAGE_SIZE);
    }
    if (!errors.has("page") && !errors.has("size") && (long) page * size > Integer.MAX_VALUE) {
      errors.add("page", "page is too large");
    }
    errors.throwIfAny();
    String organisationId = Caller.organisationId(request);
    return Envelope.ok("OK", pushes.list(organisationId, page, size).stream()
        .map(push -> StkPushView.of(push, zone)).toList());
  }

  /** The 201 answer's {@code data}. */
  record Accepted(String requestId, String phoneNumber, BigDecimal requestedAmount) {
  }
}
