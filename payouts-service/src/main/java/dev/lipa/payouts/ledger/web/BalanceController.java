package dev.lipa.payouts.ledger.web;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.Envelope;
import dev.lipa.payouts.ledger.Balance;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.money.Currency;
import jakarta.servlet.http.HttpServletRequest;
import java.math.BigDecimal;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Our additions (the spec shows no balances): the caller's balance per currency, and a sandbox top-up. Both paths
 * answer under {@code /balance} (the name) and {@code /balances}.
 */
@RestController
class BalanceController {

  private final Ledger ledger;

  BalanceController(Ledger ledger) {
    this.ledger = ledger;
  }

  @GetMapping(path = {"/api/sandbox/v1/balance", "/api/sandbox/v1/balances"},
      produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<Balance>> balances(HttpServletRequest request) {
    return Envelope.ok("OK", ledger.balances(Caller.organisationId(request)));
  }

  /** Sandbox only: adds {@code amount} (whole, above 0) of {@code currency} (KSH, TZS or UGX) to the caller. */
  @PostMapping(path = {"/api/sandbox/v1/balance/top-up", "/api/sandbox/v1/balances/top-up"},
      consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<Balance> topUp(@RequestBody JsonNode body, HttpServletRequest request) {
    JsonFields fields = JsonFields.of(body);
    String code = fields.text("currency", true, 0);
    Currency currency = null;
    if (code != null) {
      currency = Currency.of(code).orElse(null);
      if (currency == null) {
        fields.errors().add("currency", "currency must be one of " + Currency.codes());
      }
    }
    BigDecimal amount = fields.positiveAmount("amount", true, true);
    fields.errors().throwIfAny();
    return Envelope.ok("balance topped up", ledger.topUp(Caller.organisationId(request), currency, amount));
  }
}
