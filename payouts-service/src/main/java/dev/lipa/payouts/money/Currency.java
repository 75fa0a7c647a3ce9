package dev.lipa.payouts.money;

import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.web.Codes;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The currencies of balances, and of payouts where a rail pays them. KSH, TZS and UGX are tied to the country whose
 * mobile numbers they pay, and payouts in them are whole numbers (M-Pesa, the Tanzanian and the Ugandan wallets move
 * whole shillings only). USD is held, not paid out: card payments through the hosted checkout credit it (cents
 * included), and it can be listed, topped up in the sandbox and moved between a parent and its sub-accounts, but no
 * payout takes it until a USD rail exists.
 */
public enum Currency {

  KSH(MobileCountry.KENYA),
  TZS(MobileCountry.TANZANIA),
  UGX(MobileCountry.UGANDA),
  USD(null);

  public static final Currency DEFAULT = KSH;

  private final MobileCountry country;

  Currency(MobileCountry country) {
    this.country = country;
  }

  /** The country whose mobile numbers a payout in this currency pays; null for a currency no rail pays out. */
  public MobileCountry country() {
    return country;
  }

  /** Whether a payout rail pays this currency out (send money, till, paybill). */
  public boolean paysOut() {
    return country != null;
  }

  /** The balance currency with exactly this code ({@code KSH}, {@code TZS}, {@code UGX}, {@code USD}). */
  public static Optional<Currency> of(String code) {
    return Codes.of(Currency.class, Enum::name, code);
  }

  /** The payout currency with exactly this code ({@code KSH}, {@code TZS}, {@code UGX}). */
  public static Optional<Currency> payout(String code) {
    return of(code).filter(Currency::paysOut);
  }

  /** Every balance currency's code, for error messages. */
  public static String codes() {
    return Codes.list(Currency.class, Enum::name, ", ");
  }

  /** The payout currencies' codes, for error messages. */
  public static String payoutCodes() {
    return Arrays.stream(values()).filter(Currency::paysOut).map(Enum::name).collect(Collectors.joining(", "));
  }
}
