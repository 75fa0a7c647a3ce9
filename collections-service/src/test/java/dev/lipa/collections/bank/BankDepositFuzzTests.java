package dev.lipa.collections.bank;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.lipa.common.testsupport.FuzzedBodies;
import java.time.LocalDate;

/** A partner bank's notification and a sandbox deposit, from any bytes: a deposit or field errors, nothing else. */
class BankDepositFuzzTests {

  @FuzzTest(maxDuration = "5s")
  void aDepositIsValidOrRefusedFieldByField(byte[] body) {
    FuzzedBodies.parse(body, tree -> {
      BankDeposit deposit = BankDeposit.fromNotification(tree);
      assertThat(deposit.amount()).isPositive().isLessThanOrEqualTo(BankDeposit.MAX_AMOUNT);
      assertThat(deposit.amount().scale()).isEqualTo(2);
      return deposit;
    });
    FuzzedBodies.parse(body, tree -> BankDeposit.fromSimulation(tree, LocalDate.of(2026, 3, 1)));
  }
}
