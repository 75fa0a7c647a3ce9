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
 */
@ConfigurationProperties("lipa.security")
public record SecurityProperties(
    URI jwksUri,
    @DefaultValue(TokenClaims.DEFAULT_ISSUER) String issuer,
    @DefaultValue(TokenClaims.DEFAULT_AUDIENCE) String audience,
    @DefaultValue("/api/**") List<String> protectedPaths,
    @DefaultValue({}) List<String> publicPaths,
    @DefaultValue("5m") Duration verifiedTokenCacheTtl,
    @DefaultValue("10s") Duration jwksMinRefetchInterval) {
}
