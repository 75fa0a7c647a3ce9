package dev.lipa.rails.daraja;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class DarajaFieldsTests {

  private static final BigDecimal TEN = new BigDecimal("10");

  @Test
  void anStkAccountReferenceOfTwelveCharactersPassesAndOfThirteenIsRefusedNotCut() {
    assertThat(StkPushRequest.payBill(TEN, "254712345678", "A".repeat(12), null).accountReference())
        .hasSize(12);
    assertThatThrownBy(() -> StkPushRequest.payBill(TEN, "254712345678", "A".repeat(13), null))
        .isInstanceOf(DarajaFieldException.class)
        .extracting(e -> ((DarajaFieldException) e).field()).isEqualTo("AccountReference");
  }

  @Test
  void anStkTransactionDescOfThirteenCharactersPassesAndOfFourteenIsRefused() {
    assertThat(StkPushRequest.payBill(TEN, "254712345678", "ref", "D".repeat(13)).transactionDesc()).hasSize(13);
    assertThatThrownBy(() -> StkPushRequest.payBill(TEN, "254712345678", "ref", "D".repeat(14)))
        .isInstanceOf(DarajaFieldException.class).hasMessageStartingWith("TransactionDesc");
  }

  @Test
  void lengthsCountCharactersNotBytes() {
    // twelve Swahili-keyboard characters of two bytes each are still twelve
    assertThat(StkPushRequest.payBill(TEN, "254712345678", "é".repeat(12), null)).isNotNull();
  }

  @Test
  void aB2bAccountReferenceOfThirteenPassesOfFourteenIsRefusedAndAPayBillNeedsOne() {
    assertThat(new B2bRequest("id-1", B2bRequest.B2bCommand.BusinessPayBill, "888880", TEN, "A".repeat(13), null,
        "paying").accountReference()).hasSize(13);
    assertThatThrownBy(() -> new B2bRequest("id-1", B2bRequest.B2bCommand.BusinessPayBill, "888880", TEN,
        "A".repeat(14), null, "paying")).isInstanceOf(DarajaFieldException.class);
    assertThatThrownBy(() -> new B2bRequest("id-1", B2bRequest.B2bCommand.BusinessPayBill, "888880", TEN, null,
        null, "paying")).hasMessageStartingWith("AccountReference");
    assertThat(new B2bRequest("id-1", B2bRequest.B2bCommand.BusinessBuyGoods, "123456", TEN, null, null,
        "paying").accountReference()).isNull();
  }

  @Test
  void aFractionalAmountIsRefusedRatherThanRounded() {
    assertThatThrownBy(() -> DarajaFields.wholeAmount("Amount", new BigDecimal("10.50")))
        .isInstanceOf(DarajaFieldException.class).hasMessageContaining("whole");
    assertThatThrownBy(() -> DarajaFields.wholeAmount("Amount", new BigDecimal("0.01")))
        .isInstanceOf(DarajaFieldException.class);
    assertThatThrownBy(() -> new B2cRequest("id-1", B2cRequest.B2cCommand.BusinessPayment, new BigDecimal("99.9"),
        "254712345678", "payout", null)).hasMessageStartingWith("Amount");
  }

  @Test
  void wholeAmountsWrittenWithCentsPassAsWholeShillings() {
    assertThat(DarajaFields.wholeAmount("Amount", new BigDecimal("150.00"))).isEqualTo(150);
    assertThat(DarajaFields.wholeAmount("Amount", new BigDecimal("1E+2"))).isEqualTo(100);
  }

  @Test
  void zeroNegativeAndAbsurdAmountsAreRefused() {
    assertThatThrownBy(() -> DarajaFields.wholeAmount("Amount", BigDecimal.ZERO)).hasMessageContaining("positive");
    assertThatThrownBy(() -> DarajaFields.wholeAmount("Amount", new BigDecimal("-5"))).hasMessageContaining(
        "positive");
    assertThatThrownBy(() -> DarajaFields.wholeAmount("Amount", new BigDecimal("1E+30"))).hasMessageContaining(
        "range");
    assertThatThrownBy(() -> DarajaFields.wholeAmount("Amount", null)).hasMessageContaining("required");
  }

  @Test
  void phoneNumbersAreNormalisedToDarajasForm() {
    assertThat(DarajaFields.msisdn("PartyB", "0712345678")).isEqualTo("254712345678");
    assertThat(DarajaFields.msisdn("PartyB", "+254712345678")).isEqualTo("254712345678");
    assertThat(DarajaFields.msisdn("PartyB", " 254112345678 ")).isEqualTo("254112345678");
    assertThat(DarajaFields.msisdn("PartyB", "0112345678")).isEqualTo("254112345678");
  }

  @Test
  void numbersThatAreNotKenyanMobilesAreRefused() {
    for (String bad : new String[] {"255712345678", "25471234567", "2547123456789", "254812345678", "07123456",
        "2547l2345678", "", "254 712 345 678"}) {
      assertThatThrownBy(() -> DarajaFields.msisdn("PartyB", bad)).as(bad).isInstanceOf(DarajaFieldException.class);
    }
  }

  @Test
  void remarksAreTwoToAHundredCharacters() {
    assertThat(DarajaFields.remarks("ok")).isEqualTo("ok");
    assertThat(DarajaFields.remarks("r".repeat(100))).hasSize(100);
    assertThatThrownBy(() -> DarajaFields.remarks("r")).isInstanceOf(DarajaFieldException.class);
    assertThatThrownBy(() -> DarajaFields.remarks("r".repeat(101))).isInstanceOf(DarajaFieldException.class);
  }

  @Test
  void controlCharactersAreRefusedInTexts() {
    assertThatThrownBy(() -> StkPushRequest.payBill(TEN, "254712345678", "ref\nX", null))
        .isInstanceOf(DarajaFieldException.class).hasMessageContaining("control");
  }

  @Test
  void anOriginatorConversationIdIsANarrowIdAndATillIsDigits() {
    assertThat(DarajaFields.originatorConversationId("3f2c1a9e-0b1d-4c36-9d2a-000000000001")).isNotNull();
    assertThatThrownBy(() -> DarajaFields.originatorConversationId("a b")).isInstanceOf(DarajaFieldException.class);
    assertThatThrownBy(() -> DarajaFields.originatorConversationId("x".repeat(65)))
        .isInstanceOf(DarajaFieldException.class);
    assertThatThrownBy(() -> StkPushRequest.buyGoods("12a456", TEN, "254712345678", "ref", null))
        .hasMessageStartingWith("PartyB");
  }

  @Test
  void aConfigNeverShowsItsSecrets() {
    DarajaConfig config = new DarajaConfig(java.net.URI.create("https://sandbox.safaricom.co.ke"), "the-key",
        "the-secret", "174379", "the-passkey", "testapi", "the-credential", null, null, null, null, null, null);
    assertThat(config.toString()).doesNotContain("the-key", "the-secret", "the-passkey", "the-credential");
  }
}
