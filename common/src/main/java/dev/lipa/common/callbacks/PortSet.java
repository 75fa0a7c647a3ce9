package dev.lipa.common.callbacks;

import java.util.BitSet;

/** A set of TCP ports written as a list of ports and ranges ({@code 8080-8085,9092,27017}). */
public final class PortSet {

  private final BitSet ports;

  private PortSet(BitSet ports) {
    this.ports = ports;
  }

  /**
   * Reads a list such as {@code 8080-8085,9092,27017}; blank means no port.
   *
   * @throws IllegalArgumentException naming the entry that is not a port or a range of ports
   */
  public static PortSet parse(String text) {
    BitSet ports = new BitSet(65536);
    if (text == null || text.isBlank()) {
      return new PortSet(ports);
    }
    for (String entry : text.split(",")) {
      String item = entry.strip();
      if (item.isEmpty()) {
        continue;
      }
      int dash = item.indexOf('-');
      int from = port(dash < 0 ? item : item.substring(0, dash), item);
      int to = dash < 0 ? from : port(item.substring(dash + 1), item);
      if (to < from) {
        throw new IllegalArgumentException("not a range of ports: " + item);
      }
      ports.set(from, to + 1);
    }
    return new PortSet(ports);
  }

  public boolean contains(int port) {
    return port >= 0 && port < 65536 && ports.get(port);
  }

  private static int port(String text, String entry) {
    try {
      int port = Integer.parseInt(text.strip());
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("not a port: " + entry);
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a port or a range of ports: " + entry, e);
    }
  }
}
