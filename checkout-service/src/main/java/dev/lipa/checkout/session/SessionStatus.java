package dev.lipa.checkout.session;

/** The spec's checkout session states. */
public enum SessionStatus {
  PENDING,
  REQUIRES_CUSTOMER_ACTION,
  PROCESSING,
  SUCCEEDED,
  FAILED,
  EXPIRED;

  public boolean isFinal() {
    return this == SUCCEEDED || this == FAILED || this == EXPIRED;
  }
}
