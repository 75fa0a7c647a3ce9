package dev.lipa.checkout.session;

import java.util.Arrays;
import java.util.Optional;

/** The ways a customer may pay on the hosted page (the spec's allowed values). */
public enum PaymentMethod {
  CARD,
  MPESA_STK;

  public static Optional<PaymentMethod> of(String code) {
    return Arrays.stream(values()).filter(m -> m.name().equals(code)).findFirst();
  }
}
