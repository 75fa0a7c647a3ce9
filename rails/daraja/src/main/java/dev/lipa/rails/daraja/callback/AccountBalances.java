package dev.lipa.rails.daraja.callback;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code AccountBalance} value of an Account Balance result: accounts separated by {@code &}, each
 * {@code <name>|<currency>|<available>|<uncleared>|<reserved>|<last>} (the field names as Safaricom's page gives
 * them; the sixth is unnamed there).
 */
public final class AccountBalances {

  /** One account of the shortcode; {@code amounts} holds the four amounts in the order given. */
  public record Account(String name, String currency, BigDecimal available, List<BigDecimal> amounts) {
    public Account {
      amounts = List.copyOf(amounts);
    }
  }

  private AccountBalances() {
  }

  /** The accounts, or empty when the value is not in Daraja's format. */
  public static Optional<List<Account>> parse(String value) {
    if (value == null || value.isBlank() || value.length() > 4096) {
      return Optional.empty();
    }
    List<Account> accounts = new ArrayList<>();
    for (String account : value.split("&", -1)) {
      String[] f = account.split("\\|", -1);
      if (f.length != 6 || f[0].isBlank() || !f[1].matches("[A-Z]{3}")) {
        return Optional.empty();
      }
      List<BigDecimal> amounts = new ArrayList<>();
      for (int i = 2; i < 6; i++) {
        Optional<BigDecimal> d = DarajaResult.decimal(f[i]);
        if (d.isEmpty()) {
          return Optional.empty();
        }
        amounts.add(d.get());
      }
      accounts.add(new Account(f[0].strip(), f[1], amounts.get(0), amounts));
    }
    return Optional.of(accounts);
  }

  /** The balances of a successful Account Balance result. */
  public static Optional<List<Account>> of(DarajaResult result) {
    return result.successful() ? result.parameter("AccountBalance").flatMap(AccountBalances::parse)
        : Optional.empty();
  }
}
