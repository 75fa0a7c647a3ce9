package dev.lipa.auth.keys;

/** A rotation was asked for while another one's NEXT key is still waiting to sign. */
class RotationUnderWayException extends RuntimeException {

  RotationUnderWayException(SigningKeyView pending) {
    super("a signing-key rotation is already under way: key " + pending.kid() + " signs from "
        + pending.activatesAt(), null, false, false);
  }
}
