package dev.lipa.auth.apikeys;

import dev.lipa.auth.organisations.Organisations;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ApiException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

/**
 * Issues, lists, revokes and checks API keys. A key's public id starts with its environment's prefix
 * ({@code lk_sbx_}, {@code lk_live_}) so people can tell keys apart at a glance; the stored environment, not the prefix,
 * is what decides.
 */
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
  private final SecureRandom random = new SecureRandom();

  ApiKeys(ApiKeyStore store, Organisations organisations, ApplicationEventPublisher events, Clock clock) {
    this.store = store;
    this.organisations = organisations;
    this.events = events;
    this.clock = clock;
  }

  /**
   * A new key of the requested environment for the organisation; the secret in the answer is the only copy (only its
   * hash is stored).
   */
  public IssuedApiKey issue(OrganisationId organisationId, NewApiKey request) {
    if (!organisations.exists(organisationId)) {
      throw ApiException.notFound("Organisation not found");
    }
    String secret = ApiSecrets.newSecret(random);
    ApiKey key = ApiKey.issue(newKeyId(request.environment()), organisationId, request.environment(),
        ApiSecrets.hash(secret), clock.instant().truncatedTo(ChronoUnit.MILLIS));
    store.insert(key);
    log.info("issued {} API key {} for organisation {}", key.environment().claim(), key.apiKey(), organisationId);
    return new IssuedApiKey(key.apiKey(), secret, organisationId, key.environment(), key.createdAt());
  }

  /** The organisation's keys, active and revoked, oldest first; 404 when there is no such organisation. */
  public List<ApiKeySummary> list(OrganisationId organisationId) {
    if (!organisations.exists(organisationId)) {
      throw ApiException.notFound("Organisation not found");
    }
    return store.list(organisationId).stream().map(ApiKey::summary).toList();
  }

  /**
   * Revokes the organisation's key (again: no change) and answers it as it now is; 404 when the organisation has no
   * such key.
   */
  public ApiKeySummary revoke(OrganisationId organisationId, String apiKey) {
    ApiKey key = store.find(organisationId, apiKey)
        .orElseThrow(() -> ApiException.notFound("API key not found for this organisation"));
    ApiKey revoked = key.revoke(clock.instant().truncatedTo(ChronoUnit.MILLIS));
    if (key.isActive() && store.markRevoked(revoked)) {
      log.info("revoked API key {} of organisation {}", apiKey, organisationId);
    }
    // published on every call, so a revocation interrupted before its clean-up finishes on a retry
    events.publishEvent(new ApiKeyRevoked(organisationId, apiKey));
    return revoked.summary();
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
    ApiKey active = key.get();
    return Optional.of(new AuthenticatedKey(active.organisationId(), active.apiKey(), active.environment()));
  }

  private String newKeyId(Environment environment) {
    StringBuilder id = new StringBuilder(environment == Environment.LIVE ? "lk_live_" : "lk_sbx_");
    for (int i = 0; i < KEY_RANDOM_CHARS; i++) {
      id.append(KEY_ALPHABET[random.nextInt(KEY_ALPHABET.length)]);
    }
    return id.toString();
  }
}
