package dev.lipa.auth.keys;

import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operator API's signing keys (platform team only, guarded by common's operator filter on {@code /admin/**}):
 * list them, and rotate. Times are UTC instants (ISO-8601).
 */
@RestController
@RequestMapping("/admin/v1/signing-keys")
class SigningKeyAdminController {

  private final SigningKeys keys;

  SigningKeyAdminController(SigningKeys keys) {
    this.keys = keys;
  }

  @GetMapping
  Envelope<List<SigningKeyView>> list() {
    return Envelope.ok("OK", keys.list());
  }

  @PostMapping("/rotate")
  ResponseEntity<Envelope<SigningKeyView>> rotate() {
    try {
      SigningKeyView next = keys.rotate();
      return ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created(
          "Signing key rotation started: the new key is published now and signs from activatesAt", next));
    } catch (RotationUnderWayException e) {
      throw ApiException.conflict(e.getMessage());
    }
  }
}
