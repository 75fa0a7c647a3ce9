package dev.lipa.payouts.payout;

import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * What a merchant asked to pay, valid already (each kind's request reader checks its rules). Fields a kind does not
 * use are null: {@code phoneNumber}, {@code narration}, names and {@code serviceCode} for send money;
 * {@code businessNumber} and {@code accountNumber} for till and paybill.
 */
public record PayoutRequest(PayoutKind kind, Currency currency, BigDecimal amount, String callbackUrl,
    String referenceId, String phoneNumber, String businessNumber, String accountNumber, String remarks,
    String occasion, String narration, String firstName, String lastName, String customerName,
    String serviceCode) {

  public PayoutRequest {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(amount, "amount");
  }
}
