package dev.lipa.common.phone;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Tanzanian mobile networks and the two digits after 255 that name each (the national numbering plan, as
 * libphonenumber's carrier data has it): the one table behind STK push channels (C2B) and send-money service codes
 * (B2C). Numbers ported between operators keep their prefix, so the prefix is the best a request can tell.
 */
public enum TzNetwork {

  /** Tigo (Honora/Yas). */
  TIGO("Tigo", Set.of("65", "67", "71", "77")),
  AIRTEL("Airtel", Set.of("68", "69", "78")),
  HALOTEL("Halotel", Set.of("61", "62")),
  SMILE("Smile", Set.of("66")),
  TTCL("TTCL", Set.of("73")),
  VODACOM("Vodacom", Set.of("74", "75", "76", "79"));

  private final String displayName;
  private final Set<String> prefixes;

  TzNetwork(String displayName, Set<String> prefixes) {
    this.displayName = displayName;
    this.prefixes = prefixes;
  }

  /** The network's name in messages, e.g. {@code Tigo}. */
  public String displayName() {
    return displayName;
  }

  public Set<String> prefixes() {
    return prefixes;
  }

  /** Whether the number is Tanzanian and its prefix is this network's. */
  public boolean reaches(MobileNumber number) {
    return number.country() == MobileCountry.TANZANIA && prefixes.contains(number.networkPrefix());
  }

  /** The prefixes in order, e.g. {@code 65, 67, 71, 77}. */
  public String sortedPrefixes() {
    return prefixes.stream().sorted().collect(Collectors.joining(", "));
  }

  /** For a refusal: {@code Tigo numbers (255 followed by 65, 67, 71, 77)}. */
  public String describe() {
    return displayName + " numbers (255 followed by " + sortedPrefixes() + ")";
  }

  /** The network a prefix (the two digits after 255) names; empty for a prefix no network has. */
  public static Optional<TzNetwork> ofPrefix(String prefix) {
    return Arrays.stream(values()).filter(network -> network.prefixes.contains(prefix)).findFirst();
  }
}
