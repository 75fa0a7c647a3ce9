package dev.lipa.rails.daraja;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * What the connector needs to act for one Daraja shortcode, as the operator configures it. Holds the generated
 * security credential, never the initiator's password; {@link #toString()} shows no secret.
 *
 * @param baseUrl Daraja's base address ({@code https://api.safaricom.co.ke} live, {@code https://sandbox.safaricom.co.ke}
 *     sandbox, the simulator's in tests)
 * @param consumerKey the Daraja app's consumer key
 * @param consumerSecret the Daraja app's consumer secret
 * @param shortcode the business shortcode (PartyA of payouts, BusinessShortCode of STK pushes)
 * @param passkey the Lipa na M-Pesa Online passkey (STK push and query only; may be null for a payout-only shortcode)
 * @param initiatorName the API operator's user name on the M-Pesa organisation portal (payouts and queries)
 * @param securityCredential the initiator's password encrypted with Safaricom's certificate ({@code SecurityCredentials})
 * @param callbackUrl where Daraja posts STK results (CallBackURL), unless a push names its own
 * @param resultUrl where Daraja posts B2C, B2B, Transaction Status, Account Balance and Reversal results (ResultURL)
 * @param queueTimeoutUrl where Daraja posts a request that timed out in its queue (QueueTimeOutURL)
 * @param connectTimeout how long to wait for a connection (no connection: surely not received)
 * @param requestTimeout how long to wait for an answer once the request is sent (past it: UNKNOWN)
 * @param tokenRefreshMargin how long before its expiry a cached access token is replaced
 */
public record DarajaConfig(
    URI baseUrl,
    String consumerKey,
    String consumerSecret,
    String shortcode,
    String passkey,
    String initiatorName,
    String securityCredential,
    URI callbackUrl,
    URI resultUrl,
    URI queueTimeoutUrl,
    Duration connectTimeout,
    Duration requestTimeout,
    Duration tokenRefreshMargin) {

  /** Timeouts of a production connection: Daraja answers its synchronous acknowledgement within seconds. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_TOKEN_REFRESH_MARGIN = Duration.ofSeconds(60);

  public DarajaConfig {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(consumerKey, "consumerKey");
    Objects.requireNonNull(consumerSecret, "consumerSecret");
    if (shortcode == null || !shortcode.matches("[0-9]{5,9}")) {
      throw new IllegalArgumentException("shortcode must be 5 to 9 digits");
    }
    connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
    requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
    tokenRefreshMargin = tokenRefreshMargin == null ? DEFAULT_TOKEN_REFRESH_MARGIN : tokenRefreshMargin;
  }

  /** A copy with other timeouts (tests shorten them). */
  public DarajaConfig withTimeouts(Duration connect, Duration request) {
    return new DarajaConfig(baseUrl, consumerKey, consumerSecret, shortcode, passkey, initiatorName,
        securityCredential, callbackUrl, resultUrl, queueTimeoutUrl, connect, request, tokenRefreshMargin);
  }

  /** A copy with another token refresh margin. */
  public DarajaConfig withTokenRefreshMargin(Duration margin) {
    return new DarajaConfig(baseUrl, consumerKey, consumerSecret, shortcode, passkey, initiatorName,
        securityCredential, callbackUrl, resultUrl, queueTimeoutUrl, connectTimeout, requestTimeout, margin);
  }

  @Override
  public String toString() {
    // the secrets stay out of logs and exception messages
    return "DarajaConfig[baseUrl=" + baseUrl + ", shortcode=" + shortcode + ", initiatorName=" + initiatorName
        + ", callbackUrl=" + callbackUrl + ", resultUrl=" + resultUrl + ", queueTimeoutUrl=" + queueTimeoutUrl + "]";
  }
}
