package dev.lipa.common.callbacks;

import java.util.Optional;

/**
 * Reads a host written as an IPv4 number the way {@code inet_aton} does: one to four parts, each decimal, octal
 * (leading 0) or hexadecimal (0x), the last part filling the remaining bytes. Many HTTP clients and resolvers accept
 * these spellings, so the guard must see {@code 0177.1} as the loopback address it is.
 */
final class NumericHost {

  private NumericHost() {
  }

  /** The address a numeric host stands for; empty when the host is not entirely numeric or is out of range. */
  static Optional<byte[]> parseIpv4(String host) {
    if (host.isEmpty()) {
      return Optional.empty();
    }
    String[] parts = host.split("\\.", -1);
    if (parts.length > 4) {
      return Optional.empty();
    }
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      Long value = number(parts[i]);
      if (value == null) {
        return Optional.empty();
      }
      values[i] = value;
    }
    long address = 0;
    for (int i = 0; i < values.length - 1; i++) {
      if (values[i] > 0xff) {
        return Optional.empty();
      }
      address = (address << 8) | values[i];
    }
    int lastBytes = 4 - (values.length - 1);
    long last = values[values.length - 1];
    if (last >= (1L << (8 * lastBytes))) {
      return Optional.empty();
    }
    address = (address << (8 * lastBytes)) | last;
    return Optional.of(new byte[] {
        (byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address});
  }

  /** Whether the last label is a number: such a host is an address or a mistake, never a DNS name to look up. */
  static boolean looksNumeric(String host) {
    String[] labels = host.split("\\.", -1);
    return number(labels[labels.length - 1]) != null || labels[labels.length - 1].matches("(?i)0x[0-9a-f]*");
  }

  private static Long number(String part) {
    try {
      if (part.matches("(?i)0x[0-9a-f]{1,8}")) {
        return Long.parseLong(part.substring(2), 16);
      }
      if (part.matches("0[0-7]+")) {
        return Long.parseLong(part.substring(1), 8);
      }
      if (part.matches("[0-9]{1,10}")) {
        return Long.parseLong(part);
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return null;
  }
}
