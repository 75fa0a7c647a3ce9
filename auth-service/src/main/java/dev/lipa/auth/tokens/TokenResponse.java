package dev.lipa.auth.tokens;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** The spec's token response ({@code data} of the token envelope); lifetimes in seconds. */
@JsonPropertyOrder({"access_token", "refresh_token", "expires_in", "refresh_expires_in"})
record TokenResponse(
    @JsonProperty("access_token") String accessToken,
    @JsonProperty("refresh_token") String refreshToken,
    @JsonProperty("expires_in") long expiresIn,
    @JsonProperty("refresh_expires_in") long refreshExpiresIn) {

  static TokenResponse of(TokenPair pair) {
    return new TokenResponse(pair.accessToken(), pair.refreshToken(), pair.expiresIn(), pair.refreshExpiresIn());
  }

  @Override
  public String toString() {
    return "TokenResponse[expires_in=" + expiresIn + "]";
  }
}
