package dev.lipa.collections.stk;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Currencies an STK push may be requested in, with the rules that belong to them. Only Kenya's is open so far;
 * TZS and UGX join with their rails.
 */
public enum StkCurrency {

  KSH(true);

  private final boolean accountReferenceRequired;

  StkCurrency(boolean accountReferenceRequired) {
    this.accountReferenceRequired = accountReferenceRequired;
  }

  public static final StkCurrency DEFAULT = KSH;

  /** The spec: accountReference is required for KSH requests. */
  public boolean accountReferenceRequired() {
    return accountReferenceRequired;
  }

  /** The currency with exactly this code. */
  public static Optional<StkCurrency> of(String code) {
    return Arrays.stream(values()).filter(c -> c.name().equals(code)).findFirst();
  }

  /** "KSH" now; "KSH, TZS, UGX" later: the list in the refusal grows with the enum. */
  public static String codes() {
    return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
  }
}
