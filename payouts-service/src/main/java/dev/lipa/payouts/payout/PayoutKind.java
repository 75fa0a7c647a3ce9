package dev.lipa.payouts.payout;

/** The payout families: each has its own endpoints, event type prefix and callback body. */
public enum PayoutKind {

  SEND_MONEY("sendmoney"),
  TILL("till"),
  PAYBILL("paybill");

  private final String code;

  PayoutKind(String code) {
    this.code = code;
  }

  /** The prefix of the kind's event types ({@code sendmoney.accepted}) and the callback {@code kind}. */
  public String code() {
    return code;
  }

  public boolean toBusiness() {
    return this != SEND_MONEY;
  }
}
