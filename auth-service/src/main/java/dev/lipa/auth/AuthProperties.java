package dev.lipa.auth;

import dev.lipa.common.outbox.OutboxSettings;
import java.time.Duration;
import java.time.ZoneId;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the token issuer ({@code lipa.auth.*}), checked at start-up. The operator API's token is common's
 * {@code lipa.operator.token}.
 *
 * @param issuer the {@code iss} of every token; verifiers expect {@code lipa-auth}
 * @param audience the {@code aud} of every token; verifiers expect {@code lipa-api}
 * @param accessTokenTtl lifetime of access tokens, reported as {@code expires_in}
 * @param refreshTokenTtl lifetime of refresh tokens, reported as {@code refresh_expires_in}
 * @param environment the {@code environment} new organisations are created with (the label the specification's bank
 *     records show of an organisation); it does not decide which keys an organisation may hold: each API key names its
 *     own environment
 * @param zone the zone record times are shown in
 * @param outbox how the organisations' outbox sweeper republishes what a crash left behind (common's
 *     {@link OutboxSettings})
 */
@ConfigurationProperties("lipa.auth")
public record AuthProperties(
    @DefaultValue("lipa-auth") String issuer,
    @DefaultValue("lipa-api") String audience,
    @DefaultValue("300s") Duration accessTokenTtl,
    @DefaultValue("1800s") Duration refreshTokenTtl,
    @DefaultValue("sandbox") String environment,
    @DefaultValue("Africa/Nairobi") ZoneId zone,
    @DefaultValue OutboxSettings outbox) implements OutboxSettings.Source {

  public AuthProperties {
    if (issuer == null || issuer.isBlank() || audience == null || audience.isBlank()) {
      throw new IllegalArgumentException("lipa.auth.issuer and lipa.auth.audience must not be blank");
    }
    if (accessTokenTtl.isNegative() || accessTokenTtl.isZero() || refreshTokenTtl.compareTo(accessTokenTtl) < 0) {
      throw new IllegalArgumentException(
          "lipa.auth.access-token-ttl must be positive and lipa.auth.refresh-token-ttl at least as long");
    }
    outbox = outbox == null ? OutboxSettings.DEFAULTS : outbox;
  }
}
