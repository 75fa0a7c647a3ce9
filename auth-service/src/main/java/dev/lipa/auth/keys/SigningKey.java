package dev.lipa.auth.keys;

import com.nimbusds.jose.jwk.ECKey;
import java.time.Instant;

/** A P-256 key pair the service signs tokens with, named by its {@code kid} (the RFC 7638 thumbprint). */
record SigningKey(String kid, ECKey key, SigningKeyStatus status, Instant createdAt) {

  @Override
  public String toString() {
    return "SigningKey[kid=" + kid + ", status=" + status + "]";
  }
}
