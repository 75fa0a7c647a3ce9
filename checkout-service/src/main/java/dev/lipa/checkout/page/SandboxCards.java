package dev.lipa.checkout.page;

import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import java.time.YearMonth;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sandbox card "network": the documented test numbers decide the outcome, like card networks' test cards. The
 * number and the CVC live only in this request's memory: a {@link Card} keeps the brand and the last four digits.
 */
public final class SandboxCards {

  public static final String SUCCEEDS = "4242424242424242";
  public static final String DECLINED = "4000000000000002";
  public static final String REQUIRES_AUTHENTICATION = "4000002500003155";

  private static final Pattern EXPIRY = Pattern.compile("(\\d{1,2})\\s*/\\s*(\\d{2}|\\d{4})");
  private static final Pattern CVC = Pattern.compile("\\d{3,4}");

  /** What the sandbox network answers for a card. */
  public enum Outcome { SUCCEEDS, DECLINED, REQUIRES_AUTHENTICATION }

  /** A card as checkout may keep it: brand and last four digits only. */
  public record Card(String brand, String last4, Outcome outcome) {
  }

  private SandboxCards() {
  }

  /**
   * Checks the card fields (Luhn, an expiry month not in the past, a 3–4 digit CVC) and picks the sandbox outcome.
   *
   * @throws ValidationException naming every failing field ({@code cardNumber}, {@code expiry}, {@code cvc})
   */
  public static Card check(String number, String expiry, String cvc, YearMonth thisMonth) {
    FieldErrors errors = new FieldErrors();
    String digits = number == null ? "" : number.replaceAll("[\\s-]", "");
    if (!digits.matches("\\d{12,19}") || !luhn(digits)) {
      errors.add("cardNumber", "Enter a valid card number");
    } else if (!isTestCard(digits)) {
      errors.add("cardNumber", "The sandbox accepts only its test cards: " + SUCCEEDS + ", " + DECLINED + " or "
          + REQUIRES_AUTHENTICATION);
    }
    Matcher m = expiry == null ? null : EXPIRY.matcher(expiry.strip());
    if (m == null || !m.matches()) {
      errors.add("expiry", "Enter the expiry date as MM/YY");
    } else {
      int month = Integer.parseInt(m.group(1));
      int year = Integer.parseInt(m.group(2));
      year = year < 100 ? 2000 + year : year;
      if (month < 1 || month > 12) {
        errors.add("expiry", "Enter the expiry date as MM/YY");
      } else if (YearMonth.of(year, month).isBefore(thisMonth)) {
        errors.add("expiry", "This card has expired");
      }
    }
    if (cvc == null || !CVC.matcher(cvc.strip()).matches()) {
      errors.add("cvc", "Enter the 3 or 4 digit security code");
    }
    errors.throwIfAny();
    Outcome outcome = switch (digits) {
      case SUCCEEDS -> Outcome.SUCCEEDS;
      case DECLINED -> Outcome.DECLINED;
      default -> Outcome.REQUIRES_AUTHENTICATION;
    };
    return new Card(brand(digits), digits.substring(digits.length() - 4), outcome);
  }

  static boolean isTestCard(String digits) {
    return digits.equals(SUCCEEDS) || digits.equals(DECLINED) || digits.equals(REQUIRES_AUTHENTICATION);
  }

  static String brand(String digits) {
    if (digits.startsWith("4")) {
      return "VISA";
    }
    int two = Integer.parseInt(digits.substring(0, 2));
    int four = Integer.parseInt(digits.substring(0, 4));
    if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) {
      return "MASTERCARD";
    }
    if (two == 34 || two == 37) {
      return "AMEX";
    }
    return "CARD";
  }

  static boolean luhn(String digits) {
    int sum = 0;
    boolean twice = false;
    for (int i = digits.length() - 1; i >= 0; i--) {
      int d = digits.charAt(i) - '0';
      if (twice) {
        d *= 2;
        if (d > 9) {
          d -= 9;
        }
      }
      sum += d;
      twice = !twice;
    }
    return sum % 10 == 0;
  }
}
