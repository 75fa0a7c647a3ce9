package dev.lipa.collections.bank;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.json.Money;
import dev.lipa.common.web.FieldErrors;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A deposit to an organisation's bank account, as a partner bank notifies it or a merchant simulates it in the
 * sandbox; checked field by field (every failing field named at once).
 *
 * @param amount greater than 0, at most two decimals, kept with scale 2 (the record shows {@code "1500.00"})
 */
public record BankDeposit(String transactionref, String accountnumber, BigDecimal amount, String customerid,
    String paymentmode, LocalDate transactiondate, String description) {

  static final int TRANSACTIONREF_MAX = 64;
  static final int CUSTOMERID_MAX = 64;
  static final int PAYMENTMODE_MAX = 32;
  static final int DESCRIPTION_MAX = 255;
  /** Bank account numbers: digits only, 6 to 20 of them (the rule auth-service applies when they are set). */
  static final Pattern ACCOUNT_NUMBER = Pattern.compile("[0-9]{6,20}");
  static final BigDecimal MAX_AMOUNT = new BigDecimal("9999999999999.99");
  static final String SANDBOX_PAYMENT_MODE = "SANDBOX";
  private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,16}(\\.[0-9]{1,16})?");
  private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  private static final Pattern VISIBLE = Pattern.compile("[^\\p{Cntrl}]+");

  /** A partner bank's notification: transactionref, accountnumber, amount and transactiondate are required. */
  public static BankDeposit fromNotification(JsonNode body) {
    return read(body, null);
  }

  /**
   * A merchant's sandbox deposit: accountnumber and amount are required; transactionref defaults to a fresh
   * {@code SBX-…} reference, transactiondate to {@code today}, paymentmode to {@value #SANDBOX_PAYMENT_MODE}.
   */
  public static BankDeposit fromSimulation(JsonNode body, LocalDate today) {
    return read(body, today);
  }

  private static BankDeposit read(JsonNode body, LocalDate sandboxToday) {
    boolean sandbox = sandboxToday != null;
    JsonFields fields = JsonFields.of(body);
    FieldErrors errors = fields.errors();
    String transactionref = text(fields, "transactionref", !sandbox, TRANSACTIONREF_MAX);
    String accountnumber = text(fields, "accountnumber", true, 20);
    if (accountnumber != null && !ACCOUNT_NUMBER.matcher(accountnumber).matches()) {
      errors.add("accountnumber", "accountnumber must be 6 to 20 digits");
    }
    BigDecimal amount = amount(body, errors);
    String customerid = text(fields, "customerid", false, CUSTOMERID_MAX);
    String paymentmode = text(fields, "paymentmode", false, PAYMENTMODE_MAX);
    LocalDate transactiondate = date(body, !sandbox, errors);
    String description = text(fields, "description", false, DESCRIPTION_MAX);
    errors.throwIfAny();
    if (sandbox) {
      transactionref = transactionref == null ? "SBX-" + UUID.randomUUID().toString().substring(0, 13).toUpperCase()
          : transactionref;
      transactiondate = transactiondate == null ? sandboxToday : transactiondate;
      paymentmode = paymentmode == null ? SANDBOX_PAYMENT_MODE : paymentmode;
    }
    return new BankDeposit(transactionref, accountnumber, amount, customerid, paymentmode, transactiondate,
        description);
  }

  /** Whether a repeated transactionref describes the same deposit (what a bank's retry sends). */
  public boolean sameDepositAs(BankCollection stored) {
    return accountnumber.equals(stored.accountnumber()) && amount.compareTo(stored.amount()) == 0
        && transactiondate.equals(stored.transactiondate());
  }

  /** A string field (see {@link JsonFields#text}) that must not carry control characters either. */
  private static String text(JsonFields fields, String field, boolean required, int maxLength) {
    String value = fields.text(field, required, maxLength);
    if (value != null && !VISIBLE.matcher(value).matches()) {
      fields.errors().add(field, field + " must not contain control characters");
      return null;
    }
    return value;
  }

  /** A JSON number or a decimal string ({@code "1500.00"}); no exponent, no sign. */
  private static BigDecimal amount(JsonNode body, FieldErrors errors) {
    JsonNode node = body.get("amount");
    BigDecimal value;
    if (node == null || node.isNull()) {
      errors.add("amount", "amount is required");
      return null;
    } else if (node.isNumber() && !node.isDouble() && !node.isFloat()) {
      value = node.decimalValue();
    } else if (node.isString() && DECIMAL.matcher(node.stringValue().strip()).matches()) {
      value = new BigDecimal(node.stringValue().strip());
    } else {
      errors.add("amount", "amount must be a decimal number or a decimal string such as \"1500.00\"");
      return null;
    }
    // bounded on digits and scale before anything else touches it (1e100000000 is a number too)
    String refusal = Money.refusal("amount", value, 2, MAX_AMOUNT);
    if (refusal != null) {
      errors.add("amount", refusal);
      return null;
    }
    return value.setScale(2, RoundingMode.UNNECESSARY);
  }

  private static LocalDate date(JsonNode body, boolean required, FieldErrors errors) {
    JsonNode node = body.get("transactiondate");
    if (node == null || node.isNull()) {
      if (required) {
        errors.add("transactiondate", "transactiondate is required");
      }
      return null;
    }
    String message = "transactiondate must be a date as YYYY-MM-DD";
    if (!node.isString() || !DATE.matcher(node.stringValue()).matches()) {
      errors.add("transactiondate", message);
      return null;
    }
    try {
      return LocalDate.parse(node.stringValue());
    } catch (DateTimeParseException e) {
      errors.add("transactiondate", message);
      return null;
    }
  }
}
