package dev.lipa.rails.daraja.callback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.rails.daraja.DocExamples;
import dev.lipa.rails.daraja.result.FailureReason;
import dev.lipa.rails.daraja.result.ResultCodes;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/**
 * The parsers read the documentation's own example bodies (docs/daraja/examples), verbatim: never the simulator's
 * output, so a misreading cannot be shared by the two.
 */
class DocumentedBodiesTests {

  static <T> T valid(Parsed<T> parsed) {
    assertThat(parsed).isInstanceOf(Parsed.Valid.class);
    return ((Parsed.Valid<T>) parsed).value();
  }

  @Test
  void theDocumentedSuccessfulStkCallbackReadsAsAPaymentWithItsReceiptAmountAndPhone() {
    StkCallback cb = valid(DarajaCallbacks.stk(DocExamples.read("stk-callback-success")));
    assertThat(cb.successful()).isTrue();
    assertThat(cb.merchantRequestId()).isEqualTo("29115-34620561-1");
    assertThat(cb.checkoutRequestId()).isEqualTo("ws_CO_191220191020363925");
    assertThat(cb.payment().amount()).isEqualByComparingTo("1.00");
    assertThat(cb.payment().receipt()).isEqualTo("NLJ7RT61SV");
    assertThat(cb.payment().phoneNumber()).isEqualTo("254708374149");
    assertThat(cb.payment().transactionDate()).isEqualTo(LocalDateTime.of(2019, 12, 19, 10, 21, 15));
  }

  @Test
  void theDocumentedCancelledStkCallbackReadsAsCancelledWithoutPayment() {
    StkCallback cb = valid(DarajaCallbacks.stk(DocExamples.read("stk-callback-cancelled")));
    assertThat(cb.successful()).isFalse();
    assertThat(cb.payment()).isNull();
    assertThat(ResultCodes.stk(cb.resultCode()).reason()).isEqualTo(FailureReason.CANCELLED);
  }

  @Test
  void theDocumentedB2cResultsReadWithTheirReceiptAndAmount() {
    DarajaResult ok = valid(DarajaCallbacks.result(DocExamples.read("b2c-result-success")));
    assertThat(ok.successful()).isTrue();
    assertThat(ok.receipt()).contains("SG632NMUAB");
    assertThat(ok.amount()).contains(new BigDecimal("10"));
    assertThat(ok.parameter("B2CRecipientIsRegisteredCustomer")).contains("Y");
    assertThat(ok.reference("QueueTimeoutURL")).isPresent();

    DarajaResult failed = valid(DarajaCallbacks.result(DocExamples.read("b2c-result-failed")));
    assertThat(failed.successful()).isFalse();
    assertThat(failed.receipt()).isEmpty();
    assertThat(ResultCodes.payout(failed.resultCode()).reason()).isEqualTo(FailureReason.INITIATOR_INVALID);
  }

  @Test
  void theDocumentedB2bResultsReadWithStringCodesAndASingleParameterObject() {
    DarajaResult ok = valid(DarajaCallbacks.result(DocExamples.read("b2b-result-success")));
    assertThat(ok.resultCode()).isEqualTo("0");
    assertThat(ok.resultType()).isZero();
    assertThat(ok.receipt()).contains("QKA81LK5CY");
    assertThat(ok.amount()).contains(new BigDecimal("190.00"));
    assertThat(ok.reference("BillReferenceNumber")).contains("19008");
    assertThat(ok.parameter("DebitPartyCharges")).contains("");

    DarajaResult failed = valid(DarajaCallbacks.result(DocExamples.read("b2b-result-failed")));
    assertThat(failed.resultCode()).isEqualTo("2001");
    assertThat(failed.parameter("BOCompletedTime")).contains("20200120164825");
  }

  @Test
  void theB2bResultAsPublishedIsNotJsonAndIsRejectedNotThrown() {
    // the portal prints an unquoted value ("Value":000000– Biller Companty); whatever sends that is refused
    String asPublished = DocExamples.read("b2b-result-success")
        .replace("\"000000– Biller Companty\"", "000000– Biller Companty");
    assertThat(DarajaCallbacks.result(asPublished)).isInstanceOf(Parsed.Rejected.class);
  }

  @Test
  void theDocumentedTransactionStatusResultSettlesAsCompletedWithItsReceipt() {
    DarajaResult r = valid(DarajaCallbacks.result(DocExamples.read("transaction-status-result")));
    assertThat(r.parameters()).filteredOn(p -> p.key().equals("DebitPartyName")).hasSize(2);
    TransactionStatusReport report = TransactionStatusReport.of(r);
    assertThat(report).isEqualTo(new TransactionStatusReport.Completed("MBN31H462N", new BigDecimal("300"),
        "3211-416020-3", "AG_20180223_000041b09c22e613d6c9"));
  }

  @Test
  void theDocumentedAccountBalanceResultReadsEveryAccount() {
    DarajaResult r = valid(DarajaCallbacks.result(DocExamples.read("account-balance-result")));
    var accounts = AccountBalances.of(r).orElseThrow();
    assertThat(accounts).extracting(AccountBalances.Account::name).containsExactly("Working Account",
        "Float Account", "Utility Account", "Charges Paid Account", "Organization Settlement Account");
    assertThat(accounts.get(2).available()).isEqualByComparingTo("228037.00");
    assertThat(accounts.get(3).available()).isEqualByComparingTo("-1540.00");
    assertThat(AccountBalances.parse("Working Account|KES|x|1|1|1")).isEmpty();
  }

  @Test
  void theDocumentedReversalResultsReadIncludingALetteredResultCode() {
    DarajaResult ok = valid(DarajaCallbacks.result(DocExamples.read("reversal-result-success")));
    assertThat(ok.parameter("OriginalTransactionID")).contains("SKC82PACB8");
    assertThat(ok.amount()).contains(new BigDecimal("1.00"));
    DarajaResult failed = valid(DarajaCallbacks.result(DocExamples.read("reversal-result-failed")));
    assertThat(failed.resultCode()).isEqualTo("R000002");
    assertThat(ResultCodes.reversal(failed.resultCode()).reason())
        .isEqualTo(FailureReason.ORIGINAL_TRANSACTION_INVALID);
  }
}
