package dev.lipa.common.callbacks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Optional;

/**
 * Which IP addresses a callback may never reach from the live environment. An address is allowed only when it is
 * public unicast; IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by the embedded
 * address, so {@code ::ffff:127.0.0.1} is loopback however it is written.
 */
final class AddressRules {

  /** Instance metadata services of the big clouds: refused even where private targets are allowed. */
  private static final byte[][] METADATA = {
      {(byte) 169, (byte) 254, (byte) 169, (byte) 254},
      {(byte) 169, (byte) 254, (byte) 170, 2},
      {100, 100, 100, (byte) 200},
      {(byte) 0xfd, 0, 0x0e, (byte) 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54}};

  private AddressRules() {
  }

  /** Whether this is a cloud metadata address (in any IPv4-embedding IPv6 form too). */
  static boolean isMetadata(InetAddress address) {
    byte[] bytes = address.getAddress();
    byte[] embedded = embeddedIpv4(bytes);
    byte[] judged = embedded != null ? embedded : bytes;
    return Arrays.stream(METADATA).anyMatch(m -> Arrays.equals(m, judged));
  }

  /** Why a callback may not go to this address ("loopback", "private", ...), empty when it is public. */
  static Optional<String> restriction(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (isMetadata(address)) {
      return Optional.of("cloud metadata");
    }
    if (address instanceof Inet4Address) {
      return ipv4(bytes);
    }
    if (address instanceof Inet6Address) {
      byte[] embedded = embeddedIpv4(bytes);
      if (embedded != null) {
        return ipv4(embedded);
      }
      return ipv6(bytes);
    }
    return Optional.of("unknown address family");
  }

  private static Optional<String> ipv4(byte[] b) {
    int a0 = b[0] & 0xff;
    int a1 = b[1] & 0xff;
    int a2 = b[2] & 0xff;
    if (a0 == 0) {
      return Optional.of("unspecified");
    }
    if (a0 == 127) {
      return Optional.of("loopback");
    }
    if (a0 == 10 || (a0 == 172 && a1 >= 16 && a1 <= 31) || (a0 == 192 && a1 == 168)) {
      return Optional.of("private");
    }
    if (a0 == 100 && a1 >= 64 && a1 <= 127) {
      return Optional.of("carrier-grade NAT");
    }
    if (a0 == 169 && a1 == 254) {
      return Optional.of("link-local");
    }
    if (a0 >= 224 && a0 <= 239) {
      return Optional.of("multicast");
    }
    if (a0 >= 240) {
      return Optional.of("reserved"); // 240/4 and the broadcast address
    }
    if ((a0 == 192 && a1 == 0 && (a2 == 0 || a2 == 2)) || (a0 == 198 && (a1 == 18 || a1 == 19))
        || (a0 == 198 && a1 == 51 && a2 == 100) || (a0 == 203 && a1 == 0 && a2 == 113)) {
      return Optional.of("reserved"); // protocol assignments, documentation, benchmarking
    }
    return Optional.empty();
  }

  private static Optional<String> ipv6(byte[] b) {
    int first = b[0] & 0xff;
    int second = b[1] & 0xff;
    boolean zeroUpTo15 = true;
    for (int i = 0; i < 15; i++) {
      zeroUpTo15 &= b[i] == 0;
    }
    if (zeroUpTo15 && b[15] == 0) {
      return Optional.of("unspecified");
    }
    if (zeroUpTo15 && b[15] == 1) {
      return Optional.of("loopback");
    }
    if (first == 0xff) {
      return Optional.of("multicast");
    }
    if ((first & 0xfe) == 0xfc) {
      return Optional.of("unique-local");
    }
    if (first == 0xfe && (second & 0xc0) == 0x80) {
      return Optional.of("link-local");
    }
    if (first == 0xfe && (second & 0xc0) == 0xc0) {
      return Optional.of("site-local");
    }
    if ((first & 0xe0) != 0x20) {
      return Optional.of("reserved"); // only 2000::/3 is global unicast
    }
    if (first == 0x20 && second == 0x01 && b[2] == 0 && b[3] == 0) {
      return Optional.of("reserved"); // Teredo tunnels hide an IPv4 address we cannot judge
    }
    if (first == 0x20 && second == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8) {
      return Optional.of("reserved"); // documentation
    }
    return Optional.empty();
  }

  /** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64 well-known prefix, 6to4), or null. */
  static byte[] embeddedIpv4(byte[] b) {
    if (b.length != 16) {
      return null;
    }
    boolean zeroUpTo10 = true;
    for (int i = 0; i < 10; i++) {
      zeroUpTo10 &= b[i] == 0;
    }
    boolean mapped = zeroUpTo10 && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    boolean compatible = zeroUpTo10 && b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0
        && (b[15] == 0 || b[15] == 1)); // :: and ::1 are themselves, not 0.0.0.0 and 0.0.0.1
    boolean nat64 = b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
        && Arrays.equals(Arrays.copyOfRange(b, 4, 12), new byte[8]);
    if (mapped || compatible || nat64) {
      return Arrays.copyOfRange(b, 12, 16);
    }
    if (b[0] == 0x20 && b[1] == 0x02) {
      return Arrays.copyOfRange(b, 2, 6);
    }
    return null;
  }
}
