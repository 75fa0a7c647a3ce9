package dev.lipa.rails.daraja.callback;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * Daraja's {@code Result} body, as posted to the ResultURL of a B2C, B2B, Transaction Status, Account Balance or
 * Reversal request. Result codes are text (Reversal's are {@code R000001}, {@code R000002}); parameters keep their
 * order and repeats (the documented Transaction Status result repeats {@code DebitPartyName}).
 *
 * @param originatorConversationId the id the request was sent with (ours for B2C and B2B)
 * @param conversationId Daraja's id of the request, as in its acknowledgement
 * @param transactionId the M-Pesa transaction id (the receipt of a payment; a placeholder such as {@code OAK0000000}
 *     on failures)
 */
public record DarajaResult(int resultType, String resultCode, String resultDesc, String originatorConversationId,
    String conversationId, String transactionId, List<Parameter> parameters, List<Parameter> referenceData) {

  public DarajaResult {
    parameters = List.copyOf(parameters);
    referenceData = List.copyOf(referenceData);
  }

  /** A key and its value as text; null when the key came without a value. */
  public record Parameter(String key, String value) {
  }

  public boolean successful() {
    return "0".equals(resultCode);
  }

  /** The first value under this key in {@code ResultParameters}. */
  public Optional<String> parameter(String key) {
    return parameters.stream().filter(p -> p.key().equals(key) && p.value() != null).map(Parameter::value)
        .findFirst();
  }

  /** The first value under this key in {@code ReferenceData}. */
  public Optional<String> reference(String key) {
    return referenceData.stream().filter(p -> p.key().equals(key) && p.value() != null).map(Parameter::value)
        .findFirst();
  }

  /** The payment's receipt: B2C's {@code TransactionReceipt}, else the {@code TransactionID} of a success. */
  public Optional<String> receipt() {
    Optional<String> receipt = parameter("TransactionReceipt");
    if (receipt.isPresent() || !successful()) {
      return receipt;
    }
    return Optional.ofNullable(transactionId);
  }

  /** The amount moved: B2C's {@code TransactionAmount}, B2B's and Reversal's {@code Amount}. */
  public Optional<BigDecimal> amount() {
    return parameter("TransactionAmount").or(() -> parameter("Amount")).flatMap(DarajaResult::decimal);
  }

  static Optional<BigDecimal> decimal(String s) {
    if (s == null || !s.strip().matches("-?[0-9]{1,15}(\\.[0-9]{1,4})?")) {
      return Optional.empty();
    }
    return Optional.of(new BigDecimal(s.strip()));
  }
}
