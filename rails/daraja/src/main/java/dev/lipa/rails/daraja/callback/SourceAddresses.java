package dev.lipa.rails.daraja.callback;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The addresses Daraja's callbacks and results may come from: exact addresses and CIDR blocks, IPv4 or IPv6, given as
 * literals only (a host name is refused at start-up, never resolved). An empty list allows nothing: a receiver whose
 * operator did not say where Daraja posts from accepts no callback.
 */
public final class SourceAddresses {

  private record Block(byte[] network, int prefix) {
  }

  private final List<Block> blocks;

  private SourceAddresses(List<Block> blocks) {
    this.blocks = List.copyOf(blocks);
  }

  /**
   * The allow-list of these entries ({@code 196.201.214.200}, {@code 196.201.212.0/24}, {@code 2001:db8::/32}).
   *
   * @throws IllegalArgumentException for an entry that is not an address literal or block
   */
  public static SourceAddresses of(Collection<String> entries) {
    List<Block> blocks = new ArrayList<>();
    for (String entry : entries == null ? List.<String>of() : entries) {
      String text = entry == null ? "" : entry.strip();
      if (text.isEmpty()) {
        continue;
      }
      int slash = text.indexOf('/');
      byte[] address = literal(slash < 0 ? text : text.substring(0, slash))
          .orElseThrow(() -> new IllegalArgumentException("not an IP address or CIDR block: " + text));
      int prefix = address.length * 8;
      if (slash >= 0) {
        String bits = text.substring(slash + 1);
        if (!bits.matches("[0-9]{1,3}") || Integer.parseInt(bits) > address.length * 8) {
          throw new IllegalArgumentException("not a CIDR block: " + text);
        }
        prefix = Integer.parseInt(bits);
      }
      blocks.add(new Block(address, prefix));
    }
    return new SourceAddresses(blocks);
  }

  public boolean isEmpty() {
    return blocks.isEmpty();
  }

  /** Whether the address (a literal; anything else is not allowed) is in one of the blocks. */
  public boolean allows(String address) {
    java.util.Optional<byte[]> parsed = literal(address);
    if (parsed.isEmpty()) {
      return false;
    }
    byte[] candidate = parsed.get();
    for (Block block : blocks) {
      if (block.network().length == candidate.length && matches(block, candidate)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(Block block, byte[] candidate) {
    int full = block.prefix() / 8;
    for (int i = 0; i < full; i++) {
      if (block.network()[i] != candidate[i]) {
        return false;
      }
    }
    int rest = block.prefix() % 8;
    if (rest == 0) {
      return true;
    }
    int mask = (0xFF << (8 - rest)) & 0xFF;
    return (block.network()[full] & mask) == (candidate[full] & mask);
  }

  /** The bytes of an IPv4 or IPv6 literal; empty for anything else (never a name lookup). */
  private static java.util.Optional<byte[]> literal(String text) {
    if (text == null || text.isEmpty() || text.length() > 45) {
      return java.util.Optional.empty();
    }
    boolean v4 = text.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    boolean v6 = text.contains(":") && text.matches("[0-9A-Fa-f:.]+");
    if (!v4 && !v6) {
      return java.util.Optional.empty();
    }
    if (v4) {
      for (String part : text.split("\\.")) {
        if (Integer.parseInt(part) > 255 || (part.length() > 1 && part.startsWith("0"))) {
          return java.util.Optional.empty(); // 010.1.1.1 is octal to some readers: refused
        }
      }
    }
    try {
      byte[] bytes = InetAddress.getByName(text).getAddress(); // a literal: no lookup is made
      if (bytes.length == 16 && isV4Mapped(bytes)) {
        byte[] v4bytes = new byte[4];
        System.arraycopy(bytes, 12, v4bytes, 0, 4);
        return java.util.Optional.of(v4bytes);
      }
      return java.util.Optional.of(bytes);
    } catch (UnknownHostException e) {
      return java.util.Optional.empty();
    }
  }

  private static boolean isV4Mapped(byte[] bytes) {
    for (int i = 0; i < 10; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return bytes[10] == (byte) 0xFF && bytes[11] == (byte) 0xFF;
  }
}
