package dev.lipa.collections.bank;

/** A transactionref is repeated with another account, amount or date than the deposit stored for it. */
public class TransactionConflictException extends RuntimeException {

  public TransactionConflictException(String transactionref) {
    super("transactionref " + transactionref + " was already received with a different accountnumber, amount or "
        + "transactiondate", null, false, false);
  }
}
