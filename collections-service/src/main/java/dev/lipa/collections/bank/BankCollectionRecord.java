package dev.lipa.collections.bank;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.common.organisations.BankRecordOrganisation;
import dev.lipa.common.time.RecordTimes;
import java.time.ZoneId;

/**
 * The spec's bank collection record, with the spec's field names and casing: lowercase as listed, except
 * {@code organisation}, {@code createdAt} and {@code updatedAt}. {@code amount} is a string with two decimals
 * ({@code "1500.00"}); {@code transactiondate} is YYYY-MM-DD. The callback body is this record without
 * {@code organisation}.
 */
@JsonPropertyOrder({"id", "uuid", "customerid", "transactionref", "paymentmode", "transactiondate", "accountnumber",
    "amount", "description", "organisation", "createdAt", "updatedAt"})
public record BankCollectionRecord(
    long id,
    String uuid,
    String customerid,
    String transactionref,
    String paymentmode,
    String transactiondate,
    String accountnumber,
    String amount,
    String description,
    @JsonInclude(JsonInclude.Include.NON_NULL) BankRecordOrganisation organisation,
    String createdAt,
    String updatedAt) {

  public static BankCollectionRecord of(BankCollection c, BankRecordOrganisation organisation, ZoneId zone) {
    return new BankCollectionRecord(c.id(), c.uuid().toString(), c.customerid(), c.transactionref(),
        c.paymentmode(), c.transactiondate().toString(), c.accountnumber(), c.amount().toPlainString(),
        c.description(), organisation, RecordTimes.format(c.createdAt(), zone),
        RecordTimes.format(c.updatedAt(), zone));
  }
}
