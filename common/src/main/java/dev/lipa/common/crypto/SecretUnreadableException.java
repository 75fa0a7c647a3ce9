package dev.lipa.common.crypto;

/**
 * A stored secret that does not open: not in a known form, sealed under a master key the ring does not hold, changed,
 * or sealed for another record. Its message names the reason, never any key or secret material.
 */
public class SecretUnreadableException extends IllegalStateException {

  public SecretUnreadableException(String message) {
    super(message);
  }

  public SecretUnreadableException(String message, Throwable cause) {
    super(message, cause);
  }
}
