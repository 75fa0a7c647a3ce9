package dev.lipa.common.callbacks;

import dev.lipa.common.environment.StackEnvironment;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Keeps callbacks away from our own network (SSRF): a callback URL must be an absolute http(s) URL whose host
 * resolves only to public addresses. Producing services call {@link #check(String)} when they accept a
 * {@code callbackUrl}; the callback dispatcher calls {@link #resolve(String)} as the DNS resolver of its HTTP client,
 * so the addresses it checks are the only ones it connects to (a DNS answer that changes between the check and the
 * connection, "DNS rebinding", cannot slip through).
 *
 * <p>Hosts written as numbers are read the way C's {@code inet_aton} and browsers read them ({@code 2130706433},
 * {@code 0177.0.0.1}, {@code 0x7f.1}, {@code 127.1}), so no spelling of a refused address gets past. A host whose
 * last label looks numeric but does not parse as an address is refused as ambiguous.
 *
 * <p>{@code lipa.callbacks.allow-private-targets=true} (the sandbox and the local platform, whose merchants' test
 * receivers run on loopback or a private network) allows every address except cloud metadata endpoints and the
 * platform's own ports on any non-public address ({@code lipa.callbacks.platform-ports}): a callback must never
 * read the platform's own answers (the operator API, a service behind the gateway, the store) into a delivery log
 * its merchant can read.
 *
 * <p>A live service's guard ({@link #of}) allows no private target and only https URLs, whatever the settings say: a
 * live callback carries real payments' data and must not travel in clear text or into a private network.
 */
public final class CallbackUrlGuard {

  /** The setting that allows loopback and private destinations (false in live). */
  public static final String ALLOW_PRIVATE_TARGETS = "lipa.callbacks.allow-private-targets";
  /** The setting that lists the platform's own ports ({@code 8080-8085,9092}), refused on non-public addresses. */
  public static final String PLATFORM_PORTS = "lipa.callbacks.platform-ports";
  /** The local platform's default ports: gateway, services, the store and Kafka. */
  public static final String DEFAULT_PLATFORM_PORTS = "8080-8085,9092-9093,27017";

  /** Resolves a host name to all of its addresses (the system resolver by default; a fake one in tests). */
  @FunctionalInterface
  public interface HostResolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private final boolean allowPrivateTargets;
  private final boolean httpsOnly;
  private final PortSet platformPorts;
  private final HostResolver resolver;

  public CallbackUrlGuard(boolean allowPrivateTargets) {
    this(allowPrivateTargets, PortSet.parse(DEFAULT_PLATFORM_PORTS), InetAddress::getAllByName);
  }

  public CallbackUrlGuard(boolean allowPrivateTargets, PortSet platformPorts) {
    this(allowPrivateTargets, platformPorts, InetAddress::getAllByName);
  }

  public CallbackUrlGuard(boolean allowPrivateTargets, HostResolver resolver) {
    this(allowPrivateTargets, PortSet.parse(DEFAULT_PLATFORM_PORTS), resolver);
  }

  public CallbackUrlGuard(boolean allowPrivateTargets, PortSet platformPorts, HostResolver resolver) {
    this(allowPrivateTargets, false, platformPorts, resolver);
  }

  /** @param httpsOnly whether only https callback URLs are accepted (live) */
  public CallbackUrlGuard(boolean allowPrivateTargets, boolean httpsOnly, PortSet platformPorts,
      HostResolver resolver) {
    this.allowPrivateTargets = allowPrivateTargets;
    this.httpsOnly = httpsOnly;
    this.platformPorts = platformPorts;
    this.resolver = resolver;
  }

  /**
   * The guard of a service of this environment: in the sandbox as the settings say; in live the full guard (no private
   * target, https only) whatever they say.
   */
  public static CallbackUrlGuard of(StackEnvironment stack, boolean allowPrivateTargets, PortSet platformPorts) {
    if (stack.isLive()) {
      return new CallbackUrlGuard(false, true, platformPorts, InetAddress::getAllByName);
    }
    return new CallbackUrlGuard(allowPrivateTargets, false, platformPorts, InetAddress::getAllByName);
  }

  public boolean allowsPrivateTargets() {
    return allowPrivateTargets;
  }

  public boolean httpsOnly() {
    return httpsOnly;
  }

  /**
   * Checks the form of a callback URL ({@link #parse}) and, for a guard that wants https only, its scheme.
   *
   * @throws RefusedCallbackUrl with a message that is safe to show the merchant
   */
  public URI form(String url) {
    URI uri = parse(url);
    if (httpsOnly && !"https".equalsIgnoreCase(uri.getScheme())) {
      throw new RefusedCallbackUrl("the callbackUrl must be an https URL in live");
    }
    return uri;
  }

  /**
   * Checks a callback URL when a request carrying it is accepted: its form, then every address its host resolves
   * to.
   *
   * @return the parsed URL
   * @throws RefusedCallbackUrl with a message that is safe to show the merchant
   */
  public URI check(String url) {
    URI uri = form(url);
    try {
      resolve(uri.getHost(), port(uri));
    } catch (RefusedDestination e) {
      throw new RefusedCallbackUrl(e.getMessage());
    } catch (UnknownHostException e) {
      throw new RefusedCallbackUrl("the callbackUrl host does not resolve");
    }
    return uri;
  }

  /**
   * Checks a URL a merchant gives when a request is accepted and refuses it as a field error on {@code field} (a 400
   * naming it): a malformed URL, or a host that is or resolves to a refused address. A host that does not resolve
   * is accepted here (see below).
   */
  public void requireAcceptable(String field, String url) {
    try {
      URI uri = form(url);
      resolve(uri.getHost(), port(uri));
    } catch (RefusedCallbackUrl | RefusedDestination e) {
      throw dev.lipa.common.web.ValidationException.of(field, e.getMessage());
    } catch (UnknownHostException e) {
      // a name that does not resolve now may resolve later (a DNS outage should not refuse a payment); the
      // dispatcher checks every address again when it sends, and connects only to an address it checked
    }
  }

  /**
   * Checks the form of a callback URL only (absolute http or https, a host, no credentials), without DNS.
   *
   * @throws RefusedCallbackUrl with a message that is safe to show the merchant
   */
  public static URI parse(String url) {
    if (url == null || url.isBlank()) {
      throw new RefusedCallbackUrl("the callbackUrl is required");
    }
    URI uri;
    try {
      uri = new URI(url.strip());
    } catch (URISyntaxException e) {
      throw new RefusedCallbackUrl("the callbackUrl is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))) {
      throw new RefusedCallbackUrl("the callbackUrl must be an http or https URL");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new RefusedCallbackUrl("the callbackUrl must name a valid host");
    }
    if (uri.getRawUserInfo() != null) {
      throw new RefusedCallbackUrl("the callbackUrl must not contain credentials");
    }
    return uri;
  }

  /**
   * Resolves a host (a name, an IPv4 address in any numeric spelling, or an IPv6 literal with or without brackets)
   * and returns its addresses only if every one of them is allowed on any port.
   *
   * @throws RefusedDestination when any address is refused, or the host is an ambiguous number
   * @throws UnknownHostException when the name does not resolve
   */
  public InetAddress[] resolve(String host) throws UnknownHostException {
    return resolve(host, -1);
  }

  /**
   * {@link #resolve(String)} for a connection to {@code port} (-1: any port), which also refuses the platform's own
   * ports on non-public addresses where private targets are allowed.
   */
  public InetAddress[] resolve(String host, int port) throws UnknownHostException {
    InetAddress[] addresses = addressesOf(host);
    if (addresses.length == 0) {
      throw new UnknownHostException(host);
    }
    for (InetAddress address : addresses) {
      Optional<String> refusal = refusal(address, port);
      if (refusal.isPresent()) {
        throw new RefusedDestination("the callbackUrl host resolves to " + refusal.get()
            + ", which callbacks may not reach");
      }
    }
    return addresses;
  }

  /** Why this address is refused under this guard's setting, empty when a callback may go there. */
  public Optional<String> refusal(InetAddress address) {
    return refusal(address, -1);
  }

  private Optional<String> refusal(InetAddress address, int port) {
    if (!allowPrivateTargets) {
      return AddressRules.restriction(address).map(kind -> "a " + kind + " address");
    }
    if (AddressRules.isMetadata(address)) {
      return Optional.of("a cloud metadata address");
    }
    if (port >= 0 && platformPorts.contains(port) && AddressRules.restriction(address).isPresent()) {
      return Optional.of("one of the platform's own ports (" + port + ")");
    }
    return Optional.empty();
  }

  /** The port a URL connects to: its own, or its scheme's. */
  public static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  private InetAddress[] addressesOf(String rawHost) throws UnknownHostException {
    String host = rawHost.strip();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.contains(":")) {
      if (host.contains("%")) {
        throw new RefusedDestination("the callbackUrl host may not carry an IPv6 zone");
      }
      // an IPv6 literal: parsed without any DNS lookup
      return new InetAddress[] {InetAddress.getByName(host)};
    }
    if (host.endsWith(".")) {
      host = host.substring(0, host.length() - 1);
    }
    Optional<byte[]> ipv4 = NumericHost.parseIpv4(host);
    if (ipv4.isPresent()) {
      return new InetAddress[] {InetAddress.getByAddress(ipv4.get())};
    }
    if (NumericHost.looksNumeric(host)) {
      throw new RefusedDestination("the callbackUrl host is neither a valid IPv4 address nor a host name");
    }
    InetAddress[] resolved = resolver.resolve(host);
    return resolved == null ? new InetAddress[0] : dedupe(resolved);
  }

  private static InetAddress[] dedupe(InetAddress[] addresses) {
    List<InetAddress> unique = new ArrayList<>();
    for (InetAddress address : addresses) {
      if (!unique.contains(address)) {
        unique.add(address);
      }
    }
    return unique.toArray(InetAddress[]::new);
  }
}
