package dev.lipa.checkout;

import dev.lipa.common.idempotency.IdempotencySettings;
import dev.lipa.common.outbox.OutboxSettings;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of checkout-service ({@code lipa.checkout.*}), checked at start-up.
 *
 * @param publicBaseUrl the public address customers reach the hosted page on (the gateway): checkoutUrl is
 *     {@code <publicBaseUrl><pagePath>/<checkoutRef>}
 * @param pagePath where the hosted pages are at the gateway: {@code /checkout} in the sandbox, {@code /live/checkout}
 *     in live (the gateway sends them to this service's {@code /checkout/...})
 * @param sessionLifetime how long a session accepts payment attempts before it becomes EXPIRED
 * @param actionGrace how long past its lifetime a session waits for the outcome of an attempt that is already with the
 *     customer or the rail (an M-Pesa prompt on the phone) before it expires anyway
 * @param maxAttempts payment attempts a customer may make on one session; the session is FAILED when the last one fails
 * @param expirySweepInterval how often the expiry job looks for sessions past their lifetime
 * @param collections the internal STK call to collections-service
 * @param outbox how the outbox sweeper republishes what a crash left behind (common's {@link OutboxSettings})
 * @param idempotency how long Idempotency-Key responses are kept (common's {@link IdempotencySettings})
 */
@ConfigurationProperties("lipa.checkout")
public record CheckoutProperties(
    @DefaultValue("http://localhost:8080") URI publicBaseUrl,
    @DefaultValue("/checkout") String pagePath,
    @DefaultValue("30m") Duration sessionLifetime,
    @DefaultValue("5m") Duration actionGrace,
    @DefaultValue("5") int maxAttempts,
    @DefaultValue("10s") Duration expirySweepInterval,
    @DefaultValue Collections collections,
    @DefaultValue OutboxSettings outbox,
    @DefaultValue IdempotencySettings idempotency) implements OutboxSettings.Source, IdempotencySettings.Source {

  public CheckoutProperties {
    String scheme = publicBaseUrl.getScheme();
    if (!("http".equals(scheme) || "https".equals(scheme)) || publicBaseUrl.getHost() == null) {
      throw new IllegalArgumentException("lipa.checkout.public-base-url must be an absolute http(s) URL");
    }
    if (!pagePath.matches("(/[a-z0-9-]+)+")) {
      throw new IllegalArgumentException("lipa.checkout.page-path must be a path such as /checkout or /live/checkout");
    }
    positive("lipa.checkout.session-lifetime", sessionLifetime);
    positive("lipa.checkout.action-grace", actionGrace);
    positive("lipa.checkout.expiry-sweep-interval", expirySweepInterval);
    if (maxAttempts < 1 || maxAttempts > 20) {
      throw new IllegalArgumentException("lipa.checkout.max-attempts must be between 1 and 20");
    }
  }

  /** The public address of the hosted page of this checkout reference. */
  public String pageUrl(String checkoutRef) {
    return baseUrl() + pagePath + "/" + checkoutRef;
  }

  /** The public base URL without a trailing slash. */
  public String baseUrl() {
    String text = publicBaseUrl.toString();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }

  /**
   * @param uri collections-service's own address (never the gateway: the internal path is not routed there)
   * @param internalToken the shared secret sent as {@code X-Internal-Token}; unset means M-Pesa is unavailable
   * @param connectTimeout connection limit of the internal call
   * @param responseTimeout answer limit of the internal call
   */
  public record Collections(
      @DefaultValue("http://localhost:8083") URI uri,
      String internalToken,
      @DefaultValue("2s") Duration connectTimeout,
      @DefaultValue("10s") Duration responseTimeout) {

    @Override
    public String toString() {
      return "Collections[uri=" + uri + ", internalToken=***]";
    }
  }

  private static void positive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration");
    }
  }
}
