package dev.lipa.dispatcher.delivery;

import dev.lipa.common.callbacks.CallbackUrlGuard;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP client every callback attempt shares (Apache HttpClient 5, because its DNS hook lets the SSRF guard be the
 * resolver: the addresses the guard checked are the only ones a connection is opened to, no DNS rebinding between
 * check and connect, while the URL's host name still goes into the Host header, TLS SNI and certificate checks).
 */
final class GuardedHttpClient {

  private GuardedHttpClient() {
  }

  /**
   * Pooled keep-alive connections (per destination as many as attempts may be in flight there), the guard as its
   * resolver, no redirects, no retries, no cookies, no decompression (the answer is read raw and bounded).
   */
  static CloseableHttpClient create(CallbackUrlGuard guard, Duration connectTimeout, Duration requestTimeout,
      int maxConnections, int maxPerDestination) {
    var connections = PoolingHttpClientConnectionManagerBuilder.create()
        .setDnsResolver(new GuardedDnsResolver(guard))
        .setMaxConnTotal(maxConnections)
        .setMaxConnPerRoute(maxPerDestination)
        .setDefaultConnectionConfig(ConnectionConfig.custom()
            .setConnectTimeout(Timeout.of(connectTimeout))
            .setSocketTimeout(Timeout.of(requestTimeout))
            .setValidateAfterInactivity(TimeValue.ofSeconds(2))
            .setTimeToLive(TimeValue.ofMinutes(5))
            .build())
        .build();
    return HttpClients.custom()
        .setConnectionManager(connections)
        .setDefaultRequestConfig(RequestConfig.custom()
            .setRedirectsEnabled(false)
            .setResponseTimeout(Timeout.of(requestTimeout))
            .setConnectionRequestTimeout(Timeout.of(requestTimeout))
            .build())
        .disableRedirectHandling()
        .disableAutomaticRetries()
        .disableCookieManagement()
        .disableAuthCaching()
        .disableContentCompression()
        .setUserAgent(CallbackSender.USER_AGENT)
        .evictIdleConnections(TimeValue.ofSeconds(30))
        .evictExpiredConnections()
        .build();
  }

  /** The guard as the client's DNS: only checked addresses are ever connected to. */
  private record GuardedDnsResolver(CallbackUrlGuard guard) implements DnsResolver {

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
      return guard.resolve(host);
    }

    /** What the connection operator asks: the port is known, so the platform's own ports are refused here too. */
    @Override
    public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
      List<InetSocketAddress> addresses = new ArrayList<>();
      for (InetAddress address : guard.resolve(host, port)) {
        addresses.add(new InetSocketAddress(address, port));
      }
      return addresses;
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
      return host; // only used for Kerberos/SPNEGO, which callbacks never do
    }
  }
}
