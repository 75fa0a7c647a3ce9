package dev.lipa.payouts.sendmoney;

import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.phone.TzNetwork;
import dev.lipa.common.web.Codes;
import java.util.Optional;

/**
 * The Tanzanian B2C networks of a TZS send-money payout. A number belongs to a network by the two digits after 255
 * (common's {@link TzNetwork}, the national numbering plan): Tigo 65, 67, 71, 77; Airtel 68, 69, 78; Halotel 61, 62. A ported number keeps its
 * prefix and is refused for its new network: the prefix is the best the request can tell.
 */
public enum TzServiceCode {

  TIGO("TZ-TIGO-B2C", TzNetwork.TIGO),
  AIRTEL("TZ-AIRTEL-B2C", TzNetwork.AIRTEL),
  HALOTEL("TZ-HALOTEL-B2C", TzNetwork.HALOTEL);

  private final String code;
  private final TzNetwork network;

  TzServiceCode(String code, TzNetwork network) {
    this.code = code;
    this.network = network;
  }

  public String code() {
    return code;
  }

  public static Optional<TzServiceCode> of(String code) {
    return Codes.of(TzServiceCode.class, TzServiceCode::code, code);
  }

  public static String codes() {
    return Codes.list(TzServiceCode.class, TzServiceCode::code, ", ");
  }

  boolean reaches(MobileNumber number) {
    return network.reaches(number);
  }

  String describe() {
    return network.describe();
  }
}
