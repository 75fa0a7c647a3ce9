package dev.lipa.auth.tokens;

import dev.lipa.common.json.JsonFields;
import tools.jackson.databind.JsonNode;

/** The body of {@code POST /api/v1/get-token}: both fields required strings. */
record GetTokenRequest(String apiKey, String apiSecret) {

  // far above any key or secret we issue; bounds the work an oversized guess can cause
  static final int API_KEY_MAX = 128;
  static final int API_SECRET_MAX = 256;

  /** Reads the body, naming every failing field at once. */
  static GetTokenRequest from(JsonNode body) {
    JsonFields fields = JsonFields.of(body);
    String apiKey = fields.text("apiKey", true, API_KEY_MAX);
    String apiSecret = fields.text("apiSecret", true, API_SECRET_MAX);
    fields.errors().throwIfAny();
    return new GetTokenRequest(apiKey, apiSecret);
  }

  @Override
  public String toString() {
    return "GetTokenRequest[apiKey=" + apiKey + "]";
  }
}
