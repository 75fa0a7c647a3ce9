package dev.lipa.payouts.money;

import dev.lipa.common.phone.MobileCountry;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The currencies of payouts and balances, each tied to the country whose mobile numbers it pays. Every amount is a
 * whole number: M-Pesa, the Tanzanian and the Ugandan wallets move whole shillings only.
 */
public enum Currency {

  KSH(MobileCountry.KENYA),
  TZS(MobileCountry.TANZANIA),
  UGX(MobileCountry.UGANDA);

  public static final Currency DEFAULT = KSH;

  private final MobileCountry country;

  Currency(MobileCountry country) {
    this.country = country;
  }

  public MobileCountry country() {
    return country;
  }

  /** The currency with exactly this code ({@code KSH}, {@code TZS}, {@code UGX}). */
  public static Optional<Currency> of(String code) {
    return Arrays.stream(values()).filter(c -> c.name().equals(code)).findFirst();
  }

  public static String codes() {
    return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
  }
}
