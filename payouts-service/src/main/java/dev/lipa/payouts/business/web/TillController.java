package dev.lipa.payouts.business.web;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.lookups.ListPage;
import dev.lipa.common.web.Envelope;
import dev.lipa.payouts.business.BusinessPaymentRequest;
import dev.lipa.payouts.payout.PayoutKind;
import dev.lipa.payouts.web.PayoutEndpoints;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Endpoints 8 and 9 of the spec: pay a till (buy goods) and list the till payments. A POST honours an
 * {@code Idempotency-Key}; a {@code referenceId} also makes a repeat return the original payout.
 */
@RestController
class TillController {

  static final String TILL = StackEnvironment.API + "/till";
  /** The idempotency keys' scope: the sandbox path names it in both environments (each has its own store). */
  static final String CREATE_SCOPE = "POST /api/sandbox/v1/till";

  private final PayoutEndpoints endpoints;

  TillController(PayoutEndpoints endpoints) {
    this.endpoints = endpoints;
  }

  @PostMapping(path = TILL, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> till(@RequestBody JsonNode body, HttpServletRequest request) {
    return endpoints.create(CREATE_SCOPE, body, BusinessPaymentRequest::till, request,
        "till payment accepted for processing", BusinessViews.BusinessAccepted::of);
  }

  @GetMapping(path = TILL + "/all", produces = MediaType.APPLICATION_JSON_VALUE)
  ListPage<BusinessViews.BusinessRecord> tillList(@RequestParam String companyId,
      @RequestParam(required = false) String status, @RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "" + PayoutEndpoints.DEFAULT_PAGE_SIZE) int size,
      @RequestParam(required = false) String cursor, HttpServletRequest request) {
    return endpoints.list(request, companyId, PayoutKind.TILL, status, null, page, size, cursor,
        BusinessViews.BusinessRecord::of);
  }

  /**
   * Ours: one of the caller's till payments by {@code requestId} or {@code referenceId} (exactly one), as the
   * list shows it; unknown, another organisation's and another kind's are the same 404.
   */
  @GetMapping(path = TILL + "/single", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<BusinessViews.BusinessRecord> single(HttpServletRequest request) {
    return endpoints.single(request, PayoutKind.TILL, "till payment", BusinessViews.BusinessRecord::of);
  }
}
