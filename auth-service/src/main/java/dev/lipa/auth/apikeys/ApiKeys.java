package dev.lipa.auth.apikeys;

import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.organisations.Organisations;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ApiException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

/** Issues, revokes and checks API keys. */
@Service
public class ApiKeys {

  private static final Logger log = LoggerFactory.getLogger(ApiKeys.class);
  private static final char[] KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
  private static final int KEY_RANDOM_CHARS = 32; // 160 bits: keys cannot be enumerated either
  // compared against when the presented key does not exist, so an unknown key costs the same hash work
  private static final byte[] NO_KEY_HASH = ApiSecrets.hash("no such key: the comparison only burns the same time");

  private final ApiKeyStore store;
  private final Organisations organisations;
  private final ApplicationEventPublisher events;
  private final Clock clock;
  private final String keyPrefix;
  private final SecureRandom random = new SecureRandom();

  ApiKeys(ApiKeyStore store, Organisations organisations, ApplicationEventPublisher events, Clock clock,
      AuthProperties properties) {
    this.store = store;
    this.organisations = organisations;
    this.events = events;
    this.clock = clock;
    this.keyPrefix = "lk_" + ("sandbox".equals(properties.environment()) ? "sbx" : "live") + "_";
  }

  /** A new key for the organisation; the secret in the answer is the only copy (only its hash is stored). */
  public IssuedApiKey issue(OrganisationId organisationId) {
    if (!organisations.exists(organisationId)) {
      throw ApiException.notFound("Organisation not found");
    }
    String secret = ApiSecrets.newSecret(random);
    ApiKey key = ApiKey.issue(newKeyId(), organisationId, ApiSecrets.hash(secret),
        clock.instant().truncatedTo(ChronoUnit.MILLIS));
    store.insert(key);
    log.info("issued API key {} for organisation {}", key.apiKey(), organisationId);
    return new IssuedApiKey(key.apiKey(), secret, organisationId, key.createdAt());
  }

  /** Revokes the organisation's key (again: no change); 404 when the organisation has no such key. */
  public void revoke(OrganisationId organisationId, String apiKey) {
    ApiKey key = store.find(organisationId, apiKey)
        .orElseThrow(() -> ApiException.notFound("API key not found for this organisation"));
    if (key.isActive() && store.markRevoked(key.revoke(clock.instant().truncatedTo(ChronoUnit.MILLIS)))) {
      log.info("revoked API key {} of organisation {}", apiKey, organisationId);
    }
    // published on every call, so a revocation interrupted before its clean-up finishes on a retry
    events.publishEvent(new ApiKeyRevoked(organisationId, apiKey));
  }

  /**
   * The organisation an active key with this secret speaks for. Unknown key, wrong secret and revoked key all give
   * empty, after the same hash work, so neither the answer nor its timing says which part was wrong.
   */
  public Optional<AuthenticatedKey> authenticate(String apiKey, String apiSecret) {
    Optional<ApiKey> key = store.findForAuthentication(apiKey);
    boolean secretMatches = ApiSecrets.matches(apiSecret, key.map(ApiKey::secretHash).orElse(NO_KEY_HASH));
    if (key.isEmpty() || !secretMatches || !key.get().isActive()) {
      return Optional.empty();
    }
    return Optional.of(new AuthenticatedKey(key.get().organisationId(), key.get().apiKey()));
  }

  private String newKeyId() {
    StringBuilder id = new StringBuilder(keyPrefix);
    for (int i = 0; i < KEY_RANDOM_CHARS; i++) {
      id.append(KEY_ALPHABET[random.nextInt(KEY_ALPHABET.length)]);
    }
    return id.toString();
  }
}
