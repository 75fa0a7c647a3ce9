package dev.lipa.auth.tokens;

import dev.lipa.common.json.JsonFields;
import tools.jackson.databind.JsonNode;

/** The body of {@code POST /api/v1/refresh-token}: {@code refresh_token}, the token's text. */
record RefreshTokenRequest(String refreshToken) {

  static final String FIELD = "refresh_token";
  static final int MAX_LENGTH = 4096;

  static RefreshTokenRequest from(JsonNode body) {
    JsonFields fields = JsonFields.of(body);
    String token = fields.text(FIELD, true, MAX_LENGTH);
    fields.errors().throwIfAny();
    return new RefreshTokenRequest(token);
  }

  @Override
  public String toString() {
    return "RefreshTokenRequest[...]";
  }
}
