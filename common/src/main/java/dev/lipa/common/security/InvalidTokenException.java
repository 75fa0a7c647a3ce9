package dev.lipa.common.security;

/** The token is missing, malformed, forged, expired or of the wrong kind. The reason is for logs only. */
public class InvalidTokenException extends RuntimeException {

  /** What every caller is told, whatever the reason. */
  public static final String PUBLIC_MESSAGE = "invalid authentication token";

  public InvalidTokenException(String reason) {
    super(reason, null, false, false);
  }
}
