package dev.lipa.common.ratelimit;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Who a request came from, for limits keyed by the client's address: the socket's peer, unless the peer is a trusted
 * proxy (the gateway, a load balancer), in which case {@code X-Forwarded-For} is read from the right (each proxy
 * appends the address it received the request from) skipping trusted proxies, and the first address that is not one
 * is the client. Everything left of it was written by the client itself and is never believed, so a client that is
 * not a trusted proxy cannot choose its address by sending the header.
 *
 * <p>An IPv6 client is keyed by its /64 network: one subscriber usually holds a whole /64, and could otherwise take a
 * fresh address for every attempt. Only address literals are read (never a name lookup); an unreadable entry stops
 * the walk at the last trusted hop.
 */
public final class ClientAddresses {

  public static final String X_FORWARDED_FOR = "X-Forwarded-For";
  /** The default trusted proxies: this machine (the local gateway). */
  public static final List<String> LOOPBACK = List.of("127.0.0.0/8", "::1/128");

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+");

  private final List<Cidr> trusted;

  /** @param trustedProxies CIDR blocks ({@code 10.0.0.0/8}, {@code fd00::/8}) or single addresses */
  public ClientAddresses(Collection<String> trustedProxies) {
    List<Cidr> blocks = new ArrayList<>();
    for (String block : trustedProxies) {
      blocks.add(Cidr.parse(block));
    }
    this.trusted = List.copyOf(blocks);
  }

  /**
   * The client's address (an IPv6 client's /64 network) for a request from {@code peer} carrying these
   * {@code X-Forwarded-For} header values (in the order received; each may be a comma-separated list).
   */
  public String resolve(String peer, Collection<String> forwardedFor) {
    InetAddress client = walk(peer, forwardedFor);
    return client == null ? (peer == null ? "unknown" : peer) : key(client);
  }

  /**
   * The client's exact address, found as {@link #resolve} finds it but without narrowing IPv6 to its /64: what an
   * audit record names.
   */
  public String client(String peer, Collection<String> forwardedFor) {
    InetAddress client = walk(peer, forwardedFor);
    return client == null ? (peer == null ? "unknown" : peer) : client.getHostAddress();
  }

  /** The client behind the trusted proxies; null when the peer is not an address literal. */
  private InetAddress walk(String peer, Collection<String> forwardedFor) {
    InetAddress current = literal(peer);
    if (current == null || !isTrusted(current) || forwardedFor == null || forwardedFor.isEmpty()) {
      return current;
    }
    List<String> hops = new ArrayList<>();
    for (String value : forwardedFor) {
      if (value != null) {
        Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).forEach(hops::add);
      }
    }
    for (int i = hops.size() - 1; i >= 0; i--) {
      InetAddress hop = literal(hops.get(i));
      if (hop == null) {
        return current;
      }
      current = hop;
      if (!isTrusted(hop)) {
        return hop;
      }
    }
    return current;
  }

  /** Whether the address is one of the trusted proxies. */
  public boolean isTrusted(InetAddress address) {
    return trusted.stream().anyMatch(block -> block.contains(address));
  }

  private static String key(InetAddress address) {
    if (address instanceof Inet6Address) {
      byte[] network = Arrays.copyOf(address.getAddress(), 16);
      Arrays.fill(network, 8, 16, (byte) 0);
      try {
        return InetAddress.getByAddress(network).getHostAddress() + "/64";
      } catch (UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    }
    return address.getHostAddress();
  }

  /** The address an IP literal spells (brackets, an IPv4 port and an IPv6 zone tolerated); null for anything else. */
  static InetAddress literal(String text) {
    if (text == null) {
      return null;
    }
    String value = text.strip();
    if (value.startsWith("[")) {
      int end = value.indexOf(']');
      if (end < 0) {
        return null;
      }
      value = value.substring(1, end);
    } else if (value.indexOf(':') > 0 && value.indexOf(':') == value.lastIndexOf(':') && value.contains(".")) {
      value = value.substring(0, value.indexOf(':')); // 1.2.3.4:5678
    }
    int zone = value.indexOf('%');
    if (zone >= 0) {
      value = value.substring(0, zone);
    }
    boolean v4 = IPV4.matcher(value).matches();
    boolean v6 = !v4 && value.contains(":") && IPV6.matcher(value).matches();
    if (!v4 && !v6) {
      return null;
    }
    if (v4 && Arrays.stream(value.split("\\.")).anyMatch(part -> Integer.parseInt(part) > 255)) {
      return null;
    }
    try {
      return InetAddress.getByName(value); // a literal: no lookup
    } catch (UnknownHostException | RuntimeException e) {
      return null;
    }
  }

  /** An address block: the first {@code bits} bits of {@code network}. */
  record Cidr(byte[] network, int bits) {

    static Cidr parse(String text) {
      String value = text == null ? "" : text.strip();
      int slash = value.indexOf('/');
      InetAddress address = literal(slash < 0 ? value : value.substring(0, slash));
      if (address == null) {
        throw new IllegalArgumentException("not an address or CIDR block: '" + text + "'");
      }
      int max = address.getAddress().length * 8;
      int bits;
      try {
        bits = slash < 0 ? max : Integer.parseInt(value.substring(slash + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a CIDR block: '" + text + "'");
      }
      if (bits < 0 || bits > max) {
        throw new IllegalArgumentException("prefix length out of range in '" + text + "'");
      }
      return new Cidr(address.getAddress(), bits);
    }

    boolean contains(InetAddress address) {
      byte[] candidate = address.getAddress();
      if (candidate.length != network.length) {
        return false;
      }
      int full = bits / 8;
      for (int i = 0; i < full; i++) {
        if (candidate[i] != network[i]) {
          return false;
        }
      }
      int rest = bits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = (0xff << (8 - rest)) & 0xff;
      return (candidate[full] & mask) == (network[full] & mask);
    }
  }
}
