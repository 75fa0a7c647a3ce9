package dev.lipa.collections.stk;

import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.phone.TzNetwork;
import dev.lipa.common.web.Codes;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Tanzanian C2B channels of an STK push, each the network of one operator. A number belongs to a network by the
 * two digits after 255 (common's {@link TzNetwork}, the national numbering plan as libphonenumber's carrier data has
 * it: {@code com.googlecode.libphonenumber:carrier} 2.6, checked by {@code TzChannelTests}): Tigo (Honora/Yas) 65, 67,
 * 71, 77; Airtel 68, 69, 78. Numbers ported between operators keep their prefix, so a ported number is refused for
 * its new network: the prefixes are the best the request can tell.
 */
public enum TzChannel {

  TIGO("TZ-TIGO-C2B", TzNetwork.TIGO),
  AIRTEL("TZ-AIRTEL-C2B", TzNetwork.AIRTEL);

  private final String code;
  private final TzNetwork network;

  TzChannel(String code, TzNetwork network) {
    this.code = code;
    this.network = network;
  }

  /** The code merchants send, e.g. {@code TZ-TIGO-C2B}. */
  public String code() {
    return code;
  }

  public String network() {
    return network.displayName();
  }

  public Set<String> prefixes() {
    return network.prefixes();
  }

  /** The channel with exactly this code. */
  public static Optional<TzChannel> of(String code) {
    return Codes.of(TzChannel.class, TzChannel::code, code);
  }

  public static String codes() {
    return Codes.list(TzChannel.class, TzChannel::code, " or ");
  }

  /** The channel of the number's network, if it is one of them. */
  static Optional<TzChannel> reaching(MobileNumber number) {
    return Arrays.stream(values()).filter(channel -> channel.reaches(number)).findFirst();
  }

  /** The networks and their prefixes, for a refusal: {@code Tigo (255 followed by 65, ...) or Airtel (...)}. */
  static String networks() {
    return Arrays.stream(values()).map(c -> c.network() + " (255 followed by " + c.sortedPrefixes() + ")")
        .collect(Collectors.joining(" or "));
  }

  boolean reaches(MobileNumber number) {
    return network.reaches(number);
  }

  /** The network a Tanzanian number's prefix names, for a refusal. */
  static String networkOf(MobileNumber number) {
    return TzNetwork.ofPrefix(number.networkPrefix()).map(TzNetwork::displayName).orElse("another network");
  }

  String sortedPrefixes() {
    return network.sortedPrefixes();
  }
}
