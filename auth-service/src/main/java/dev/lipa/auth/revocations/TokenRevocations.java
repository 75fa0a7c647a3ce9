package dev.lipa.auth.revocations;

import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.apikeys.ApiKeyRevoked;
import dev.lipa.auth.organisations.Organisations;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/**
 * Revocations of tokens before they expire, and the feed every verifier of the platform follows to learn of them.
 *
 * <p>A revocation stays in the feed for the access tokens' lifetime plus twice the clock skew verifiers allow (60 s
 * each way): after that every access token it refuses has expired anyway, so the feed holds only what can still
 * matter. Refresh tokens are refused by auth-service alone, through their revoked families.
 */
@Service
public class TokenRevocations {

  /** Verifiers accept a token up to 60 s after its {@code exp}; clocks of two hosts may differ as much again. */
  static final Duration SKEW = Duration.ofSeconds(120);
  /** How long the feed answer is reused before the store is read again (verifiers of every replica poll it). */
  static final Duration FEED_REUSE = Duration.ofMillis(500);
  private static final Logger log = LoggerFactory.getLogger(TokenRevocations.class);

  private final RevocationStore store;
  private final Organisations organisations;
  private final ApplicationEventPublisher events;
  private final Clock clock;
  private final Duration inFeed;
  private volatile Feed feed;

  TokenRevocations(RevocationStore store, Organisations organisations, ApplicationEventPublisher events, Clock clock,
      AuthProperties properties) {
    this.store = store;
    this.organisations = organisations;
    this.events = events;
    this.clock = clock;
    this.inFeed = properties.accessTokenTtl().plus(SKEW);
  }

  /**
   * Revokes every token of the organisation issued up to now, access and refresh; its API keys stay usable for new
   * tokens. Answers the cut-off. 404 when there is no such organisation.
   */
  public Instant revokeOrganisation(OrganisationId organisationId) {
    if (!organisations.exists(organisationId)) {
      throw ApiException.notFound("Organisation not found");
    }
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    store.revokeOrganisation(organisationId, now, now.plus(inFeed));
    feed = null;
    log.info("revoked every token of organisation {} issued up to {}", organisationId, now);
    events.publishEvent(new OrganisationTokensRevoked(organisationId, now));
    return now;
  }

  /** A revoked key's tokens are refused everywhere too (its refresh families end with it, in the tokens feature). */
  @EventListener
  void apiKeyRevoked(ApiKeyRevoked event) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    store.revokeKey(event.organisationId(), event.apiKey(), now, now.plus(inFeed));
    feed = null;
  }

  /** The revocations verifiers must know now, with a version that changes exactly when they do. */
  Feed feed() {
    Instant now = clock.instant();
    Feed known = feed;
    if (known != null && now.isBefore(known.readAt().plus(FEED_REUSE)) && !now.isBefore(known.readAt())) {
      return known;
    }
    List<Revocation> revocations = store.inFeed(now).stream()
        .sorted(Comparator.comparing(Revocation::kind).thenComparing(Revocation::organisationId)
            .thenComparing(r -> r.apiKey() == null ? "" : r.apiKey()))
        .toList();
    Feed read = new Feed(version(revocations), revocations, now);
    feed = read;
    return read;
  }

  /** A digest of the list, the same on every replica for the same revocations. */
  private static String version(List<Revocation> revocations) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Revocation r : revocations) {
        digest.update((r.kind() + "|" + r.organisationId() + "|" + r.apiKey() + "|" + r.at().toEpochMilli() + "\n")
            .getBytes(StandardCharsets.UTF_8));
      }
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest.digest(), 18));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** The feed's content at {@code readAt}. */
  record Feed(String version, List<Revocation> revocations, Instant readAt) {
  }
}
