package dev.lipa.payouts.sendmoney.web;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.lookups.ListPage;
import dev.lipa.common.web.Envelope;
import dev.lipa.payouts.payout.PayoutKind;
import dev.lipa.payouts.sendmoney.SendMoneyRequest;
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
 * Endpoints 6 and 7 of the spec: send money to a phone and list the send-money payouts. A POST honours an
 * {@code Idempotency-Key}; a {@code referenceId} also makes a repeat return the original payout.
 */
@RestController
class SendMoneyController {

  static final String SEND_MONEY = StackEnvironment.API + "/send-money";
  /** The idempotency keys' scope: the sandbox path names it in both environments (each has its own store). */
  static final String CREATE_SCOPE = "POST /api/sandbox/v1/send-money";

  private final PayoutEndpoints endpoints;

  SendMoneyController(PayoutEndpoints endpoints) {
    this.endpoints = endpoints;
  }

  @PostMapping(path = SEND_MONEY, consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> sendMoney(@RequestBody JsonNode body, HttpServletRequest request) {
    return endpoints.create(CREATE_SCOPE, body, SendMoneyRequest::from, request,
        "send money accepted for processing",
        p -> new SendMoneyViews.SendMoneyAccepted(p.requestId().toString(), p.amount(), p.request().phoneNumber(),
            p.status().name()));
  }

  @GetMapping(path = SEND_MONEY + "/all", produces = MediaType.APPLICATION_JSON_VALUE)
  ListPage<SendMoneyViews.SendMoneyRecord> sendMoneyList(@RequestParam String companyId,
      @RequestParam(required = false) String status, @RequestParam(required = false) String currencyCode,
      @RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "" + PayoutEndpoints.DEFAULT_PAGE_SIZE) int size,
      @RequestParam(required = false) String cursor, HttpServletRequest request) {
    return endpoints.list(request, companyId, PayoutKind.SEND_MONEY, status, currencyCode, page, size, cursor,
        SendMoneyViews.SendMoneyRecord::of);
  }

  /**
   * Ours: one of the caller's send money payments by {@code requestId} or {@code referenceId} (exactly one), as the
   * list shows it; unknown, another organisation's and another kind's are the same 404.
   */
  @GetMapping(path = SEND_MONEY + "/single", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<SendMoneyViews.SendMoneyRecord> single(HttpServletRequest request) {
    return endpoints.single(request, PayoutKind.SEND_MONEY, "send money payment",
        SendMoneyViews.SendMoneyRecord::of);
  }
}
