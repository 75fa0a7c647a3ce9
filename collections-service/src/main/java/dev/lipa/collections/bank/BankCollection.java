package dev.lipa.collections.bank;

import dev.lipa.common.ids.OrganisationId;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.UUID;

/**
 * A deposit credited to an organisation's bank account. Created once and never changed: a bank collection has no
 * states (the money has arrived when the bank tells us).
 *
 * @param id the numeric id of the spec's record
 * @param uuid the record's uuid, the {@code requestId} of the lookup endpoint
 * @param source who reported it: the partner bank's code, or {@value #SANDBOX} for a merchant's simulated deposit
 * @param callbackUrl the organisation's collectionCallbackUrl when the collection arrived; null when none was set
 * @param callbackId the stable id of the callback to {@code callbackUrl}; null when there is none
 */
public record BankCollection(
    long id,
    UUID uuid,
    OrganisationId organisationId,
    String source,
    String customerid,
    String transactionref,
    String paymentmode,
    LocalDate transactiondate,
    String accountnumber,
    BigDecimal amount,
    String description,
    String callbackUrl,
    UUID callbackId,
    Instant createdAt,
    Instant updatedAt) {

  /** The source of deposits merchants simulate in the sandbox. */
  public static final String SANDBOX = "sandbox";

  public BankCollection {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(organisationId, "organisationId");
    Objects.requireNonNull(source, "source");
    if ((callbackUrl == null) != (callbackId == null)) {
      throw new IllegalArgumentException("a callback needs both its url and its id");
    }
  }

  /** A new collection of the organisation; a callback is due when the organisation has a collectionCallbackUrl. */
  static BankCollection receive(long id, OrganisationId organisationId, String source, BankDeposit deposit,
      String collectionCallbackUrl, Instant now) {
    return new BankCollection(id, UUID.randomUUID(), organisationId, source, deposit.customerid(),
        deposit.transactionref(), deposit.paymentmode(), deposit.transactiondate(), deposit.accountnumber(),
        deposit.amount(), deposit.description(), collectionCallbackUrl,
        collectionCallbackUrl == null ? null : UUID.randomUUID(), now, now);
  }

  /**
   * What makes a transactionref unique: per partner bank, and per organisation for sandbox deposits (merchants pick
   * their own references there, and one merchant's reference must never answer with another's record).
   */
  String transactionKey() {
    return transactionKey(source, organisationId, transactionref);
  }

  static String transactionKey(String source, OrganisationId organisationId, String transactionref) {
    return SANDBOX.equals(source) ? SANDBOX + "\n" + organisationId.value() + "\n" + transactionref
        : source + "\n" + transactionref;
  }
}
