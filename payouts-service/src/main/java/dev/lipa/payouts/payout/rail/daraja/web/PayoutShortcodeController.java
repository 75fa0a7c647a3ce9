package dev.lipa.payouts.payout.rail.daraja.web;

import dev.lipa.payouts.payout.rail.daraja.PayoutShortcodes;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The operators' B2C/B2B shortcodes of a live stack, {@code /admin/v1/daraja/payout-shortcodes} (behind the operator
 * token and audited, as every {@code /admin/**}). Secrets go in and never come out: an answer says whether each is
 * set and its fingerprint.
 */
@RestController
@RequestMapping("/admin/v1/daraja/payout-shortcodes")
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class PayoutShortcodeController {

  private final PayoutShortcodes shortcodes;

  PayoutShortcodeController(PayoutShortcodes shortcodes) {
    this.shortcodes = shortcodes;
  }

  @GetMapping
  Envelope<List<PayoutShortcodes.View>> list() {
    return Envelope.ok("Payout shortcodes fetched", shortcodes.list());
  }

  @GetMapping("/{shortcode}")
  Envelope<PayoutShortcodes.View> one(@PathVariable String shortcode) {
    return Envelope.ok("Payout shortcode fetched", shortcodes.find(shortcode)
        .orElseThrow(() -> ApiException.notFound("Payout shortcode not found")));
  }

  /** Creates the shortcode (201) or changes the fields the body names (200). */
  @PutMapping(path = "/{shortcode}", consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Envelope<PayoutShortcodes.View>> put(@PathVariable String shortcode, @RequestBody JsonNode body) {
    PayoutShortcodes.Saved saved = shortcodes.put(shortcode, body);
    return saved.created()
        ? ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("Payout shortcode created", saved.view()))
        : ResponseEntity.ok(Envelope.ok("Payout shortcode updated", saved.view()));
  }
}
