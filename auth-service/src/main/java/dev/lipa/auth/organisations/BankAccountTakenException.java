package dev.lipa.auth.organisations;

/** The bank account number already belongs to another organisation; which one is not told. */
public class BankAccountTakenException extends RuntimeException {

  private final String accountNumber;

  public BankAccountTakenException(String accountNumber) {
    super("bank account number " + accountNumber + " already belongs to another organisation", null, false, false);
    this.accountNumber = accountNumber;
  }

  public String accountNumber() {
    return accountNumber;
  }
}
