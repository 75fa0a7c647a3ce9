package dev.lipa.auth.tokens;

/** A token request refused with 401; the message is safe to show, the reason is for logs only. */
class TokenRefusedException extends RuntimeException {

  static final String INVALID_CREDENTIALS = "Invalid API credentials";
  static final String INVALID_REFRESH_TOKEN = "Invalid refresh token";

  private final String reason;

  TokenRefusedException(String publicMessage, String reason) {
    super(publicMessage, null, false, false);
    this.reason = reason;
  }

  String reason() {
    return reason;
  }
}
