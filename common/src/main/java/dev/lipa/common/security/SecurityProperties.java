package dev.lipa.common.security;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a service verifies tokens ({@code lipa.security.*}).
 *
 * @param jwksUri the issuer's JWKS endpoint; when absent the service does not check tokens (auth-service itself)
 * @param protectedPaths path patterns that need an access token
 * @param publicPaths path patterns inside the protected ones that do not
 * @param revocationsUri auth-service's revocation feed; unset: {@value RevocationFeed#PATH} on the JWKS endpoint's
 *     host (auth-service serves both)
 * @param revocationPollInterval how often the feed is read: the longest a revocation takes to reach this verifier
 * @param revocationAlertAfterFailures failed reads in a row before an ERROR says revocations are not arriving
 */
@ConfigurationProperties("lipa.security")
public record SecurityProperties(
    URI jwksUri,
    @DefaultValue(TokenClaims.DEFAULT_ISSUER) String issuer,
    @DefaultValue(TokenClaims.DEFAULT_AUDIENCE) String audience,
    @DefaultValue("/api/**") List<String> protectedPaths,
    @DefaultValue({}) List<String> publicPaths,
    @DefaultValue("5m") Duration verifiedTokenCacheTtl,
    @DefaultValue("10s") Duration jwksMinRefetchInterval,
    URI revocationsUri,
    @DefaultValue("2s") Duration revocationPollInterval,
    @DefaultValue("5") int revocationAlertAfterFailures) {

  public SecurityProperties {
    if (revocationPollInterval.isNegative() || revocationPollInterval.isZero()) {
      throw new IllegalArgumentException("lipa.security.revocation-poll-interval must be positive");
    }
    if (revocationAlertAfterFailures < 1) {
      throw new IllegalArgumentException("lipa.security.revocation-alert-after-failures must be at least 1");
    }
  }

  /** The revocation feed to follow: the explicit setting, else auth-service's, found beside the JWKS endpoint. */
  public URI revocationFeed() {
    if (revocationsUri != null) {
      return revocationsUri;
    }
    return jwksUri == null ? null : jwksUri.resolve(RevocationFeed.PATH);
  }

  /** The feed of these settings, started; its owner closes it. */
  public RevocationFeed startRevocationFeed(String internalToken, java.time.Clock clock) {
    return new RevocationFeed(revocationFeed(), internalToken, revocationPollInterval, revocationAlertAfterFailures,
        clock).start();
  }
}
