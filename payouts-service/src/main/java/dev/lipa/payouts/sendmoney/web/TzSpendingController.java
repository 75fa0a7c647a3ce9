package dev.lipa.payouts.sendmoney.web;

import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.ValidationException;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.payout.Payout;
import dev.lipa.payouts.payout.PayoutKind;
import dev.lipa.payouts.web.PayoutEndpoints;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Endpoint 18 of the spec: the caller's Tanzanian (TZS) send-money payout by its requestId. */
@RestController
class TzSpendingController {

  static final String TZ_SPENDING = "/api/v1/tz/spending/single";

  private final PayoutEndpoints endpoints;

  TzSpendingController(PayoutEndpoints endpoints) {
    this.endpoints = endpoints;
  }

  /** {@code Device-Id} is required (the gateway checks it too). */
  @GetMapping(path = TZ_SPENDING, produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<SendMoneyViews.TzPayoutRecord> tzSpending(@RequestParam String requestId,
      @RequestHeader(name = "Device-Id", required = false) String deviceId, HttpServletRequest request) {
    if (deviceId == null || deviceId.isBlank()) {
      throw ValidationException.of("Device-Id", "Device-Id header is required");
    }
    Payout payout = endpoints.own(request, requestId)
        .filter(p -> p.kind() == PayoutKind.SEND_MONEY && p.currency() == Currency.TZS)
        .orElseThrow(() -> ApiException.notFound("TZ payout not found"));
    return Envelope.ok("OK", endpoints.view(payout, SendMoneyViews.TzPayoutRecord::of));
  }
}
