package dev.lipa.collections.stk;

import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.web.Codes;
import java.util.Optional;

/** Currencies an STK push may be requested in, each bound to its country, with the rules that belong to them. */
public enum StkCurrency {

  /** Kenya (M-Pesa): accountReference is required and shown to the customer in the prompt. */
  KSH(MobileCountry.KENYA),
  /** Tanzania: the channel (Tigo or Airtel C2B) is required and must reach the number. */
  TZS(MobileCountry.TANZANIA),
  /** Uganda: narration and customerName are required. */
  UGX(MobileCountry.UGANDA);

  public static final StkCurrency DEFAULT = KSH;

  private final MobileCountry country;

  StkCurrency(MobileCountry country) {
    this.country = country;
  }

  public MobileCountry country() {
    return country;
  }

  /** The spec: accountReference is required for KSH requests. */
  public boolean accountReferenceRequired() {
    return this == KSH;
  }

  /** The spec: channel is needed only for Tanzania. */
  public boolean channelRequired() {
    return this == TZS;
  }

  /** The spec: narration and customerName are needed only for Uganda. */
  public boolean narrationAndCustomerNameRequired() {
    return this == UGX;
  }

  /** The currency with exactly this code (upper case). */
  public static Optional<StkCurrency> of(String code) {
    return Codes.of(StkCurrency.class, Enum::name, code);
  }

  /** "KSH, TZS, UGX". */
  public static String codes() {
    return Codes.list(StkCurrency.class, Enum::name, ", ");
  }
}
