package dev.lipa.collections.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.web.ValidationException;
import java.time.LocalDate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

class BankDepositTests {

  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
  private static final LocalDate TODAY = LocalDate.of(2025, 6, 1);

  private static BankDeposit notification(String amountJson) {
    return BankDeposit.fromNotification(JSON.readTree("""
        {"transactionref":"FT25152XYZ","accountnumber":"0123456789","amount":%s,"transactiondate":"2025-06-01"}"""
        .formatted(amountJson)));
  }

  static Stream<Arguments> amounts() {
    return Stream.of(
        Arguments.of(named("the string \"1500.00\"", "\"1500.00\""), "1500.00"),
        Arguments.of(named("the string \"1500\"", "\"1500\""), "1500.00"),
        Arguments.of(named("the number 1500", "1500"), "1500.00"),
        Arguments.of(named("the number 1500.5", "1500.5"), "1500.50"),
        Arguments.of(named("the number 1500.000", "1500.000"), "1500.00"));
  }

  @ParameterizedTest(name = "keeps {0} as {1}")
  @MethodSource("amounts")
  void keepsAmountsWithTwoDecimals(String json, String shown) {
    assertThat(notification(json).amount().toPlainString()).isEqualTo(shown);
  }

  static Stream<Arguments> invalidAmounts() {
    return Stream.of(
        Arguments.of(named("zero", "0")), Arguments.of(named("negative", "-5")),
        Arguments.of(named("three decimals", "\"10.005\"")), Arguments.of(named("an exponent", "\"1e3\"")),
        Arguments.of(named("a signed string", "\"-10\"")), Arguments.of(named("text", "\"ten\"")),
        Arguments.of(named("a boolean", "true")), Arguments.of(named("too large", "\"99999999999999.00\"")));
  }

  @ParameterizedTest(name = "refuses an amount that is {0}")
  @MethodSource("invalidAmounts")
  void refusesInvalidAmounts(String json) {
    assertThatThrownBy(() -> notification(json)).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.errors()).containsOnlyKeys("amount"));
  }

  @Test
  void aNotificationNeedsItsReferenceAccountAmountAndDate() {
    assertThatThrownBy(() -> BankDeposit.fromNotification(JSON.readTree("{}")))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.errors())
            .containsOnlyKeys("transactionref", "accountnumber", "amount", "transactiondate"));
  }

  @Test
  void aSimulationFillsInReferenceDateAndPaymentMode() {
    BankDeposit deposit = BankDeposit.fromSimulation(
        JSON.readTree("{\"accountnumber\":\"0123456789\",\"amount\":250}"), TODAY);

    assertThat(deposit.transactionref()).startsWith("SBX-");
    assertThat(deposit.transactiondate()).isEqualTo(TODAY);
    assertThat(deposit.paymentmode()).isEqualTo("SANDBOX");
  }

  @Test
  void refusesDatesThatDoNotExist() {
    assertThatThrownBy(() -> BankDeposit.fromNotification(JSON.readTree("""
        {"transactionref":"FT1","accountnumber":"0123456789","amount":"1","transactiondate":"2025-02-30"}""")))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.errors()).containsOnlyKeys("transactiondate"));
  }
}
