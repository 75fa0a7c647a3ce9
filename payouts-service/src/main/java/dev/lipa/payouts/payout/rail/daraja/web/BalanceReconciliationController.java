package dev.lipa.payouts.payout.rail.daraja.web;

import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.ValidationException;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliations;
import dev.lipa.payouts.payout.rail.daraja.ReconciliationView;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The funds reconciliation reports of a live stack, {@code /admin/v1/daraja/balance-reconciliations} (behind the
 * operator token and audited, as every {@code /admin/**}): the latest reports, one report, and a reconciliation run
 * now (its shortcodes answer later: read it again).
 */
@RestController
@RequestMapping("/admin/v1/daraja/balance-reconciliations")
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class BalanceReconciliationController {

  private static final int DEFAULT_LIMIT = 31;
  private static final int MAX_LIMIT = 366;

  private final BalanceReconciliations reconciliations;

  BalanceReconciliationController(BalanceReconciliations reconciliations) {
    this.reconciliations = reconciliations;
  }

  /** The most recent reports first. */
  @GetMapping
  Envelope<List<ReconciliationView>> list(@RequestParam(required = false) Integer limit) {
    int size = limit == null ? DEFAULT_LIMIT : limit;
    if (size < 1 || size > MAX_LIMIT) {
      throw ValidationException.of("limit", "limit must be between 1 and " + MAX_LIMIT);
    }
    return Envelope.ok("Balance reconciliations fetched", reconciliations.latest(size));
  }

  @GetMapping("/{id}")
  Envelope<ReconciliationView> one(@PathVariable String id) {
    return Envelope.ok("Balance reconciliation fetched", reconciliations.find(id)
        .orElseThrow(() -> ApiException.notFound("Balance reconciliation not found")));
  }

  /** Asks every reconciled shortcode now (202: the answers arrive on the ResultURLs). */
  @PostMapping
  ResponseEntity<Envelope<ReconciliationView>> run() {
    return ResponseEntity.status(HttpStatus.ACCEPTED)
        .body(Envelope.of(HttpStatus.ACCEPTED, "Balance reconciliation started", reconciliations.runNow()));
  }
}
