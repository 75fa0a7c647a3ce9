package dev.lipa.auth.keys;

import java.time.Instant;

/**
 * What operators see of a signing key: never private material.
 *
 * @param deactivatesAt when it stops signing (its successor's activation), null while none is planned
 * @param retiresAt when it leaves the JWKS (the last token it signed has expired by then), null while it may sign
 * @param retiredAt when it was retired, null before
 */
record SigningKeyView(String kid, String algorithm, SigningKeyStatus status, Instant createdAt, Instant activatesAt,
    Instant deactivatesAt, Instant retiresAt, Instant retiredAt) {
}
