package dev.lipa.payouts.payout;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.json.Money;
import dev.lipa.common.web.FieldErrors;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Field rules every payout request shares: amount, callbackUrl, referenceId. */
public final class RequestRules {

  public static final int REFERENCE_ID_MAX = 64;
  public static final int CALLBACK_URL_MAX = 2048;
  public static final int TEXT_MAX = 100;
  /** Amounts stay exact in Decimal128 and for clients that read JSON numbers as doubles: the platform's ceiling. */
  public static final BigDecimal AMOUNT_MAX = Money.MAX;

  private RequestRules() {
  }

  /** A whole amount above 0 (10.0 is 10; 10.5 is refused: the wallets move whole shillings). */
  public static BigDecimal amount(JsonFields fields, BigDecimal minimum, String currency) {
    BigDecimal amount = fields.positiveAmount("amount", true, 0, AMOUNT_MAX);
    FieldErrors errors = fields.errors();
    if (amount != null && minimum != null && amount.compareTo(minimum) < 0) {
      errors.add("amount", "amount must be at least " + minimum.toPlainString() + " for " + currency);
      return null;
    }
    return amount;
  }

  public static String callbackUrl(JsonFields fields) {
    String callbackUrl = fields.text("callbackUrl", true, CALLBACK_URL_MAX);
    if (callbackUrl != null && !isAbsoluteHttpUrl(callbackUrl)) {
      fields.errors().add("callbackUrl", "callbackUrl must be an absolute http or https URL");
      return null;
    }
    return callbackUrl;
  }

  public static String referenceId(JsonFields fields) {
    return fields.text("referenceId", false, REFERENCE_ID_MAX);
  }

  static boolean isAbsoluteHttpUrl(String text) {
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return uri.isAbsolute() && (scheme.equals("http") || scheme.equals("https"))
          && uri.getHost() != null && !uri.getHost().isBlank();
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
