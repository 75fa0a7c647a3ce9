package dev.lipa.payouts.payout.rail.daraja;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a live payouts-service reaches Daraja ({@code lipa.payouts.daraja.*}); the shortcodes themselves are configured
 * through the operator API ({@code /admin/v1/daraja/payout-shortcodes}).
 *
 * @param baseUrl Daraja's base address: {@code https://api.safaricom.co.ke} (production)
 * @param callbackBaseUrl the platform's public address Daraja posts results to; a shortcode's ResultURL is
 *     {@code <callbackBaseUrl>/daraja/v1/results/<shortcode's random segment>}, its QueueTimeOutURL
 *     {@code .../daraja/v1/timeouts/<segment>}
 * @param connectTimeout past it nothing was sent
 * @param requestTimeout past it the payout is UNKNOWN (never sent again; settled by Transaction Status)
 * @param remarks the {@code Remarks} sent with every payout (2 to 100 characters)
 * @param callbackSources the addresses (exact IPs or CIDR blocks) Daraja's results may come from; empty: none is
 *     accepted
 */
@ConfigurationProperties("lipa.payouts.daraja")
public record DarajaPayoutsProperties(
    @DefaultValue("https://api.safaricom.co.ke") URI baseUrl,
    URI callbackBaseUrl,
    @DefaultValue("5s") Duration connectTimeout,
    @DefaultValue("30s") Duration requestTimeout,
    @DefaultValue("Payout") String remarks,
    @DefaultValue List<String> callbackSources) {
}
