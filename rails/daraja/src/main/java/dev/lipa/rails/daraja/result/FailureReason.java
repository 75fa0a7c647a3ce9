package dev.lipa.rails.daraja.result;

/**
 * Why a Daraja payment did not go through, in the platform's words. The first four are the reasons the platform already
 * names (the sandbox rail's outcomes and the {@code resultCode} description of {@code docs/asyncapi.yaml}: 1
 * insufficient funds, 1032 cancelled, 1037 unreachable, 2001 wrong PIN); the others are Daraja's further documented
 * results.
 */
public enum FailureReason {
  /** The payer's balance does not cover it (the customer's for STK, our shortcode's utility account for B2C/B2B). */
  INSUFFICIENT_FUNDS,
  /** The customer cancelled the prompt. */
  CANCELLED,
  /** The customer's phone could not be reached (off, busy, another session). */
  UNREACHABLE,
  /** M-Pesa could not lock the customer's account: another transaction of theirs was in process (STK 1001). */
  SUBSCRIBER_BUSY,
  /** The customer entered a wrong PIN. */
  WRONG_PIN,
  /** Below the minimum amount of a transaction. */
  AMOUNT_BELOW_MINIMUM,
  /** Above the maximum amount of a transaction. */
  AMOUNT_ABOVE_MAXIMUM,
  /** It would pass the customer's daily transfer limit. */
  DAILY_LIMIT_EXCEEDED,
  /** It would pass the receiving account's maximum balance. */
  BALANCE_LIMIT_EXCEEDED,
  /** The same amount to the same customer within two minutes (STK rule limit). */
  REPEATED_TOO_SOON,
  /** The customer did not answer in time. */
  EXPIRED,
  /** The prompt could not be sent (too long: AccountReference shown in it). */
  PROMPT_FAILED,
  /** The receiver is not a registered M-Pesa customer this payment can reach. */
  RECEIVER_NOT_REGISTERED,
  /** The receiver does not exist on M-Pesa. */
  RECEIVER_INVALID,
  /** Our initiator's name or security credential is wrong (an operator must fix the configuration). */
  INITIATOR_INVALID,
  /** Our initiator's credential is locked after failed attempts (the business administrator unlocks it). */
  CREDENTIAL_LOCKED,
  /** Our shortcode or initiator may not make this kind of request (a product or role assignment is missing). */
  NOT_PERMITTED,
  /** Our shortcode's account is not active. */
  ACCOUNT_INACTIVE,
  /** M-Pesa failed internally or is throttling. */
  PROVIDER_FAILURE,
  /** The transaction to reverse does not exist. */
  ORIGINAL_TRANSACTION_INVALID,
  /** The transaction was already reversed. */
  ALREADY_REVERSED,
  /** A code not in the table: treated as a failure, kept with Daraja's description for operators. */
  UNRECOGNISED
}
