package dev.lipa.collections.stk;

import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Tanzanian C2B channels of an STK push, each the network of one operator. A number belongs to a network by the
 * two digits after 255. The table follows the national numbering plan as libphonenumber's carrier data has it
 * ({@code com.googlecode.libphonenumber:carrier} 2.6, checked by {@code TzChannelTests}): Tigo (Honora/Yas) 65, 67,
 * 71, 77; Airtel 68, 69, 78. Numbers ported between operators keep their prefix, so a ported number is refused for
 * its new network: the prefixes are the best the request can tell.
 */
public enum TzChannel {

  TIGO("TZ-TIGO-C2B", "Tigo", Set.of("65", "67", "71", "77")),
  AIRTEL("TZ-AIRTEL-C2B", "Airtel", Set.of("68", "69", "78"));

  /** The other Tanzanian mobile networks, named in refusals only. */
  private static final Map<String, String> OTHER_NETWORKS = Map.ofEntries(
      Map.entry("61", "Halotel"), Map.entry("62", "Halotel"), Map.entry("66", "Smile"), Map.entry("73", "TTCL"),
      Map.entry("74", "Vodacom"), Map.entry("75", "Vodacom"), Map.entry("76", "Vodacom"),
      Map.entry("79", "Vodacom"));

  private final String code;
  private final String network;
  private final Set<String> prefixes;

  TzChannel(String code, String network, Set<String> prefixes) {
    this.code = code;
    this.network = network;
    this.prefixes = prefixes;
  }

  /** The code merchants send, e.g. {@code TZ-TIGO-C2B}. */
  public String code() {
    return code;
  }

  public String network() {
    return network;
  }

  public Set<String> prefixes() {
    return prefixes;
  }

  /** The channel with exactly this code. */
  public static Optional<TzChannel> of(String code) {
    return Arrays.stream(values()).filter(c -> c.code.equals(code)).findFirst();
  }

  public static String codes() {
    return Arrays.stream(values()).map(TzChannel::code).collect(Collectors.joining(" or "));
  }

  /** The channel of the number's network, if it is one of them. */
  static Optional<TzChannel> reaching(MobileNumber number) {
    return Arrays.stream(values()).filter(channel -> channel.reaches(number)).findFirst();
  }

  /** The networks and their prefixes, for a refusal: {@code Tigo (255 followed by 65, ...) or Airtel (...)}. */
  static String networks() {
    return Arrays.stream(values()).map(c -> c.network + " (255 followed by " + c.sortedPrefixes() + ")")
        .collect(Collectors.joining(" or "));
  }

  boolean reaches(MobileNumber number) {
    return number.country() == MobileCountry.TANZANIA && prefixes.contains(number.networkPrefix());
  }

  /** The network a Tanzanian number's prefix names, for a refusal. */
  static String networkOf(MobileNumber number) {
    String prefix = number.networkPrefix();
    return Arrays.stream(values()).filter(c -> c.prefixes.contains(prefix)).map(TzChannel::network).findFirst()
        .orElse(OTHER_NETWORKS.getOrDefault(prefix, "another network"));
  }

  String sortedPrefixes() {
    return prefixes.stream().sorted().collect(Collectors.joining(", "));
  }
}
