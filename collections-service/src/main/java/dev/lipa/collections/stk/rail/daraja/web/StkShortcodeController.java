package dev.lipa.collections.stk.rail.daraja.web;

import dev.lipa.collections.stk.rail.daraja.StkShortcodes;
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
 * The operators' STK shortcodes of a live stack, {@code /admin/v1/daraja/stk-shortcodes} (behind the operator token
 * and audited, as every {@code /admin/**}). Secrets go in and never come out: an answer says whether each is set and
 * its fingerprint.
 */
@RestController
@RequestMapping("/admin/v1/daraja/stk-shortcodes")
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class StkShortcodeController {

  private final StkShortcodes shortcodes;

  StkShortcodeController(StkShortcodes shortcodes) {
    this.shortcodes = shortcodes;
  }

  @GetMapping
  Envelope<List<StkShortcodes.View>> list() {
    return Envelope.ok("STK shortcodes fetched", shortcodes.list());
  }

  @GetMapping("/{shortcode}")
  Envelope<StkShortcodes.View> one(@PathVariable String shortcode) {
    return Envelope.ok("STK shortcode fetched", shortcodes.find(shortcode)
        .orElseThrow(() -> ApiException.notFound("STK shortcode not found")));
  }

  /** Creates the shortcode (201) or changes the fields the body names (200). */
  @PutMapping(path = "/{shortcode}", consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Envelope<StkShortcodes.View>> put(@PathVariable String shortcode, @RequestBody JsonNode body) {
    StkShortcodes.Saved saved = shortcodes.put(shortcode, body);
    return saved.created()
        ? ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("STK shortcode created", saved.view()))
        : ResponseEntity.ok(Envelope.ok("STK shortcode updated", saved.view()));
  }
}
