package dev.lipa.common.events;

/** The platform's Kafka topics; the AsyncAPI document in docs/ describes their records. */
public final class Topics {

  public static final String COLLECTIONS = "payments.collections.v1";
  public static final String PAYOUTS = "payments.payouts.v1";
  public static final String CHECKOUT = "payments.checkout.v1";
  public static final String ORGANISATIONS = "payments.organisations.v1";
  public static final String CALLBACKS = "payments.callbacks.v1";

  private Topics() {
  }
}
