package dev.lipa.collections.stk.rail.daraja.web;

import dev.lipa.collections.stk.rail.daraja.UnresolvedStkPushes;
import dev.lipa.common.web.Envelope;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operators' view of live STK pushes the reconciliation could not settle,
 * {@code GET /admin/v1/daraja/stk-pushes/unresolved} (behind the operator token and audited, as every
 * {@code /admin/**}): every organisation's, since it is the platform's shortcode that took or did not take the money.
 */
@RestController
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class UnresolvedStkPushController {

  private final UnresolvedStkPushes unresolved;

  UnresolvedStkPushController(UnresolvedStkPushes unresolved) {
    this.unresolved = unresolved;
  }

  @GetMapping("/admin/v1/daraja/stk-pushes/unresolved")
  Envelope<List<UnresolvedStkPushes.View>> list() {
    return Envelope.ok("Unresolved STK pushes fetched", unresolved.list());
  }
}
