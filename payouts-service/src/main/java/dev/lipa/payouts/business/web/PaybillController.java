package dev.lipa.payouts.business.web;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.lookups.ListPage;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.payouts.business.BusinessPaymentRequest;
import dev.lipa.payouts.payout.Payout;
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
 * Endpoints 10 to 12 of the spec: pay a paybill, list the paybill payments and read one's status. A POST honours an
 * {@code Idempotency-Key}; a {@code referenceId} also makes a repeat return the original payout.
 */
@RestController
class PaybillController {

  static final String PAYBILL = StackEnvironment.API + "/paybill";
  /** The idempotency keys' scope: the sandbox path names it in both environments (each has its own store). */
  static final String CREATE_SCOPE = "POST /api/sandbox/v1/paybill";

  private final PayoutEndpoints endpoints;

  PaybillController(PayoutEndpoints endpoints) {
    this.endpoints = endpoints;
  }

  @PostMapping(path = PAYBILL, consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> paybill(@RequestBody JsonNode body, HttpServletRequest request) {
    return endpoints.create(CREATE_SCOPE, body, BusinessPaymentRequest::paybill, request,
        "paybill payment accepted for processing", BusinessViews.BusinessAccepted::of);
  }

  /** The spec shows no parameters here: {@code companyId} is optional (default: the caller) with the same rules. */
  @GetMapping(path = PAYBILL + "/all", produces = MediaType.APPLICATION_JSON_VALUE)
  ListPage<BusinessViews.BusinessRecord> paybillList(@RequestParam(required = false) String companyId,
      @RequestParam(required = false) String status, @RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "" + PayoutEndpoints.DEFAULT_PAGE_SIZE) int size,
      @RequestParam(required = false) String cursor, HttpServletRequest request) {
    return endpoints.list(request, companyId, PayoutKind.PAYBILL, status, null, page, size, cursor,
        BusinessViews.BusinessRecord::of);
  }

  @GetMapping(path = PAYBILL + "/status", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<BusinessViews.BusinessStatus> paybillStatus(@RequestParam String requestId, HttpServletRequest request) {
    Payout payout = endpoints.own(request, requestId).filter(p -> p.kind() == PayoutKind.PAYBILL)
        .orElseThrow(() -> ApiException.notFound("paybill payment not found"));
    return Envelope.ok("OK", new BusinessViews.BusinessStatus(payout.request().accountNumber(),
        payout.request().businessNumber(), payout.requestId().toString(), payout.amount(), payout.status().name()));
  }

  /**
   * Ours: one of the caller's paybill payments by {@code requestId} or {@code referenceId} (exactly one), as the
   * list shows it; unknown, another organisation's and another kind's are the same 404.
   */
  @GetMapping(path = PAYBILL + "/single", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<BusinessViews.BusinessRecord> single(HttpServletRequest request) {
    return endpoints.single(request, PayoutKind.PAYBILL, "paybill payment", BusinessViews.BusinessRecord::of);
  }
}
