package dev.lipa.auth.keys;

import java.time.Duration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Serves the public keys verifiers check token signatures with (public: it holds nothing secret). */
@RestController
class JwksController {

  private final SigningKeys keys;

  JwksController(SigningKeys keys) {
    this.keys = keys;
  }

  @GetMapping(path = "/.well-known/jwks.json", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<String> jwks() {
    // JWKSet.toString() renders public parameters only; the set holds public keys anyway
    return ResponseEntity.ok()
        .cacheControl(CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic())
        .body(keys.publicKeySet().toString());
  }
}
