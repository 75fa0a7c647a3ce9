package dev.lipa.payouts.sendmoney;

import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Tanzanian B2C networks of a TZS send-money payout. A number belongs to a network by the two digits after 255
 * (the national numbering plan): Tigo 65, 67, 71, 77; Airtel 68, 69, 78; Halotel 61, 62. A ported number keeps its
 * prefix and is refused for its new network: the prefix is the best the request can tell.
 */
public enum TzServiceCode {

  TIGO("TZ-TIGO-B2C", "Tigo", Set.of("65", "67", "71", "77")),
  AIRTEL("TZ-AIRTEL-B2C", "Airtel", Set.of("68", "69", "78")),
  HALOTEL("TZ-HALOTEL-B2C", "Halotel", Set.of("61", "62"));

  private final String code;
  private final String network;
  private final Set<String> prefixes;

  TzServiceCode(String code, String network, Set<String> prefixes) {
    this.code = code;
    this.network = network;
    this.prefixes = prefixes;
  }

  public String code() {
    return code;
  }

  public static Optional<TzServiceCode> of(String code) {
    return Arrays.stream(values()).filter(c -> c.code.equals(code)).findFirst();
  }

  public static String codes() {
    return Arrays.stream(values()).map(TzServiceCode::code).collect(Collectors.joining(", "));
  }

  boolean reaches(MobileNumber number) {
    return number.country() == MobileCountry.TANZANIA && prefixes.contains(number.networkPrefix());
  }

  String describe() {
    return network + " numbers (255 followed by " + prefixes.stream().sorted().collect(Collectors.joining(", "))
        + ")";
  }
}
