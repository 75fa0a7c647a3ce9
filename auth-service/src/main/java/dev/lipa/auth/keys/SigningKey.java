package dev.lipa.auth.keys;

import com.nimbusds.jose.jwk.ECKey;
import java.time.Instant;

/**
 * A stored P-256 signing key, named by its {@code kid} (the RFC 7638 thumbprint): its public half, its private half
 * as sealed at rest (null once erased), the key it follows ({@link SigningKeyStore#FIRST} for the first key), and its
 * times. Its status follows from these and the clock ({@link KeyTimeline}).
 *
 * @param activatesAt when it starts signing (and its predecessor stops)
 * @param retiredAt when it left the JWKS for good, or null
 */
record SigningKey(String kid, ECKey publicKey, String sealedPrivateKey, String follows, Instant createdAt,
    Instant activatesAt, Instant retiredAt) {

  boolean hasPrivateKey() {
    return sealedPrivateKey != null;
  }

  @Override
  public String toString() {
    return "SigningKey[kid=" + kid + ", activatesAt=" + activatesAt + ", retiredAt=" + retiredAt + "]";
  }
}
