package dev.lipa.payouts.ledger.web;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.Envelope;
import dev.lipa.payouts.ledger.Balance;
import dev.lipa.payouts.ledger.Ledger;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Our addition (the spec shows no balances): the caller's balance per currency, under {@code /balance} (the issue's
 * name) and {@code /balances}. The sandbox top-up is {@code dev.lipa.payouts.topup}'s.
 */
@RestController
class BalanceController {

  private final Ledger ledger;

  BalanceController(Ledger ledger) {
    this.ledger = ledger;
  }

  @GetMapping(path = {StackEnvironment.API + "/balance", StackEnvironment.API + "/balances"},
      produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<Balance>> balances(HttpServletRequest request) {
    return Envelope.ok("OK", ledger.balances(Caller.organisation(request)));
  }
}
