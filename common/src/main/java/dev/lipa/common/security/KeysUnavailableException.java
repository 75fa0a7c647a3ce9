package dev.lipa.common.security;

/** The verification keys could not be fetched; the caller gets a 503, not a 401. */
public class KeysUnavailableException extends RuntimeException {

  public KeysUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
