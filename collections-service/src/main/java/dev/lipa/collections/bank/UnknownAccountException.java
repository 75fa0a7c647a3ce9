package dev.lipa.collections.bank;

/** No organisation (that the caller may see) holds the credited account number. */
public class UnknownAccountException extends RuntimeException {

  public UnknownAccountException() {
    super("no organisation holds this accountnumber", null, false, false);
  }
}
