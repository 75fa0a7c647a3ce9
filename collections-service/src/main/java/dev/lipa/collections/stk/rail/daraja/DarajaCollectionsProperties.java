package dev.lipa.collections.stk.rail.daraja;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a live collections-service reaches Daraja ({@code lipa.collections.daraja.*}); the shortcodes themselves are
 * configured through the operator API ({@code /admin/v1/daraja/stk-shortcodes}).
 *
 * @param baseUrl Daraja's base address: {@code https://api.safaricom.co.ke} (production)
 * @param callbackBaseUrl the platform's public address Daraja posts results to; each shortcode's CallBackURL is
 *     {@code <callbackBaseUrl>/daraja/v1/stk/<shortcode's random segment>/<requestId>}
 * @param connectTimeout past it nothing was sent
 * @param requestTimeout past it the push is UNKNOWN (never sent again)
 * @param callbackSources the addresses (exact IPs or CIDR blocks) Daraja's callbacks may come from; empty: none is
 *     accepted
 */
@ConfigurationProperties("lipa.collections.daraja")
public record DarajaCollectionsProperties(
    @DefaultValue("https://api.safaricom.co.ke") URI baseUrl,
    URI callbackBaseUrl,
    @DefaultValue("5s") Duration connectTimeout,
    @DefaultValue("30s") Duration requestTimeout,
    @DefaultValue List<String> callbackSources) {
}
