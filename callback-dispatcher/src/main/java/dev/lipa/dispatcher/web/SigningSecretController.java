package dev.lipa.dispatcher.web;

import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.dispatcher.signing.SigningSecrets;
import dev.lipa.dispatcher.signing.SigningSecrets.IssuedSecret;
import dev.lipa.dispatcher.signing.SigningSecrets.SecretMetadata;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The organisation's callback signing secret: {@code /api/v1/callbacks/signing-secret}. */
@RestController
@RequestMapping("/api/v1/callbacks/signing-secret")
class SigningSecretController {

  private final SigningSecrets secrets;

  SigningSecretController(SigningSecrets secrets) {
    this.secrets = secrets;
  }

  /** Issues the first secret or rotates; the response is the only place the secret is ever shown. */
  @PostMapping
  ResponseEntity<Envelope<IssuedSecret>> issue(HttpServletRequest request) {
    IssuedSecret issued = secrets.issue(Caller.organisation(request));
    return ResponseEntity.status(HttpStatus.CREATED)
        .header("Cache-Control", "no-store")
        .body(Envelope.created("Signing secret issued; store it now, it is not shown again", issued));
  }

  /** When the secret was issued and when a rotation window ends; never the secret. */
  @GetMapping
  Envelope<SecretMetadata> metadata(HttpServletRequest request) {
    return Envelope.ok("Signing secret metadata", secrets.metadata(Caller.organisation(request))
        .orElseThrow(() -> ApiException.notFound(
            "no signing secret yet; POST /api/v1/callbacks/signing-secret issues one")));
  }
}
