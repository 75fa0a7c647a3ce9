package dev.lipa.rails.daraja;

/** Daraja's {@code TransactionType} of an STK push: to a paybill or to a till (buy goods). */
public enum StkTransactionType {
  CUSTOMER_PAY_BILL_ONLINE("CustomerPayBillOnline"),
  CUSTOMER_BUY_GOODS_ONLINE("CustomerBuyGoodsOnline");

  private final String wire;

  StkTransactionType(String wire) {
    this.wire = wire;
  }

  /** The value Daraja takes. */
  public String wire() {
    return wire;
  }
}
