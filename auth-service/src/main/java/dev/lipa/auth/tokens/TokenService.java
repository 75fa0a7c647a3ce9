package dev.lipa.auth.tokens;

import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.apikeys.ApiKeyRevoked;
import dev.lipa.auth.apikeys.ApiKeys;
import dev.lipa.auth.apikeys.AuthenticatedKey;
import dev.lipa.auth.keys.SigningKeys;
import dev.lipa.auth.organisations.Organisation;
import dev.lipa.auth.organisations.Organisations;
import dev.lipa.auth.revocations.OrganisationTokensRevoked;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.security.VerifiedToken;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/** Exchanges API credentials for a token pair, and a refresh token for the next pair of its family. */
@Service
class TokenService {

  private static final Logger log = LoggerFactory.getLogger(TokenService.class);

  private final ApiKeys apiKeys;
  private final TokenMinter minter;
  private final TokenFamilyStore families;
  private final TokenVerifier refreshVerifier;
  private final Organisations organisations;
  private final Clock clock;

  TokenService(ApiKeys apiKeys, TokenMinter minter, TokenFamilyStore families, SigningKeys keys,
      AuthProperties properties, Organisations organisations, Clock clock) {
    this.apiKeys = apiKeys;
    this.organisations = organisations;
    this.minter = minter;
    this.families = families;
    // the same checks as every verifier of the platform, against our own key store (not a bean: a TokenVerifier
    // bean would replace common's and change what the bearer filter trusts, were it ever switched on here)
    this.refreshVerifier = new TokenVerifier(keys.asJwksKeys(), properties.issuer(), properties.audience(), clock,
        Duration.ofMinutes(5));
    this.clock = clock;
  }

  /** A new pair in a new family; 401 ({@link TokenRefusedException}) whatever part of the credentials is wrong. */
  TokenPair issue(String apiKey, String apiSecret) {
    AuthenticatedKey key = apiKeys.authenticate(apiKey, apiSecret)
        .orElseThrow(() -> new TokenRefusedException(TokenRefusedException.INVALID_CREDENTIALS,
            "unknown key, wrong secret or revoked key"));
    Instant now = clock.instant();
    String family = UUID.randomUUID().toString();
    String jti = UUID.randomUUID().toString();
    TokenPair pair = minter.mint(key.organisationId(), key.apiKey(), key.environment(), family, jti, now,
        requestLimit(key.organisationId()));
    families.start(family, key.organisationId(), key.apiKey(), key.environment(), jti, now, pair.refreshExpiresAt());
    return pair;
  }

  /**
   * The next pair of the refresh token's family. The token buys one pair only: presenting a spent token again means
   * it leaked (or a client replays), so the whole family is revoked, including the pair its first use bought.
   *
   * <p>The pair is for the refresh token's environment, which is its key's: the family remembers the environment it
   * started in and is spent only by a token of that environment, so no refresh ever changes it.
   */
  TokenPair refresh(String refreshToken) {
    VerifiedToken token;
    try {
      token = refreshVerifier.verify(refreshToken, TokenClaims.REFRESH);
    } catch (InvalidTokenException e) {
      throw new TokenRefusedException(TokenRefusedException.INVALID_REFRESH_TOKEN, e.getMessage());
    }
    if (token.family() == null) {
      throw new TokenRefusedException(TokenRefusedException.INVALID_REFRESH_TOKEN, "refresh token without family");
    }
    Instant now = clock.instant();
    String nextJti = UUID.randomUUID().toString();
    // the next pair names the key the family started with (a refresh token minted before tokens named it: none) and
    // its environment (a token minted before tokens named one: sandbox)
    OrganisationId organisation = token.organisation();
    TokenPair pair = minter.mint(organisation, token.apiKey(), token.environment(), token.family(), nextJti, now,
        requestLimit(organisation));
    if (!families.spend(token.family(), organisation, token.environment(), token.tokenId(), nextJti, now,
        pair.refreshExpiresAt())) {
      families.revoke(token.family(), organisation, "refresh token reused", now);
      log.warn("refresh token {} of organisation {} was not the unspent token of a live family {}; family revoked",
          token.tokenId(), token.organisationId(), token.family());
      throw new TokenRefusedException(TokenRefusedException.INVALID_REFRESH_TOKEN, "spent or revoked");
    }
    return pair;
  }

  /** The organisation's own request limit, read when a token is minted: a change applies to tokens minted after it. */
  private Integer requestLimit(OrganisationId organisationId) {
    return organisations.find(organisationId).map(Organisation::requestsPerSecond).orElse(null);
  }

  /** Every refresh family of the organisation started by the cut-off ends: its refresh tokens buy nothing more. */
  @EventListener
  void organisationTokensRevoked(OrganisationTokensRevoked event) {
    long revoked = families.revokeOrganisation(event.organisationId(), event.revokedBefore());
    log.info("revoked {} refresh token families of organisation {}", revoked, event.organisationId());
  }

  @EventListener
  void apiKeyRevoked(ApiKeyRevoked event) {
    long revoked = families.revokeStartedWith(event.organisationId(), event.apiKey(), clock.instant());
    if (revoked > 0) {
      log.info("revoked {} refresh token families of API key {}", revoked, event.apiKey());
    }
  }
}
