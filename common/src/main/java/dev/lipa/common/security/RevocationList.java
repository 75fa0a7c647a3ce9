package dev.lipa.common.security;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The revocations that can still matter, as auth-service's feed ({@code GET /internal/v1/revocations}) lists them:
 * revoked API keys (every token they minted is refused) and organisations whose tokens issued up to an instant are
 * refused. {@code version} is the feed's ETag, so a verifier asks only for changes.
 *
 * <p>The feed's body is the envelope with {@code data: {version, apiKeys: [{apiKey, organisationId, revokedAt}],
 * organisations: [{organisationId, revokedBefore}]}}, instants in ISO-8601 UTC.
 */
public record RevocationList(String version, Map<String, Instant> apiKeys, Map<String, Instant> organisations) {

  public static final RevocationList EMPTY = new RevocationList(null, Map.of(), Map.of());

  public RevocationList {
    apiKeys = Map.copyOf(apiKeys);
    organisations = Map.copyOf(organisations);
  }

  /**
   * Whether the token is revoked: minted by a revoked key, or issued by the time its organisation's tokens were
   * revoked. {@code iat} is whole seconds, so a token issued in the same second as the revocation is refused too.
   */
  public boolean revokes(VerifiedToken token) {
    if (apiKeys.isEmpty() && organisations.isEmpty()) {
      return false;
    }
    if (token.apiKey() != null && apiKeys.containsKey(token.apiKey())) {
      return true;
    }
    Instant revokedBefore = organisations.get(token.organisationId());
    return revokedBefore != null && (token.issuedAt() == null || !token.issuedAt().isAfter(revokedBefore));
  }

  public int size() {
    return apiKeys.size() + organisations.size();
  }

  /**
   * Reads the feed's body.
   *
   * @throws IllegalArgumentException when it is not the feed's shape (the caller keeps the list it had)
   */
  static RevocationList parse(String body, JsonMapper json) {
    try {
      JsonNode data = json.readTree(body).path("data");
      JsonNode version = data.get("version");
      JsonNode keys = data.get("apiKeys");
      JsonNode organisations = data.get("organisations");
      if (version == null || !version.isString() || keys == null || !keys.isArray() || organisations == null
          || !organisations.isArray()) {
        throw new IllegalArgumentException("not a revocation list");
      }
      Map<String, Instant> revokedKeys = new HashMap<>();
      for (JsonNode key : keys) {
        revokedKeys.put(text(key, "apiKey"), Instant.parse(text(key, "revokedAt")));
      }
      Map<String, Instant> revokedOrganisations = new HashMap<>();
      for (JsonNode organisation : organisations) {
        revokedOrganisations.merge(text(organisation, "organisationId"),
            Instant.parse(text(organisation, "revokedBefore")), (a, b) -> a.isAfter(b) ? a : b);
      }
      return new RevocationList(version.asString(), revokedKeys, revokedOrganisations);
    } catch (JacksonException | DateTimeParseException e) {
      throw new IllegalArgumentException("unreadable revocation list: " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isString() || value.asString().isBlank()) {
      throw new IllegalArgumentException("a revocation without " + field);
    }
    return value.asString();
  }
}
