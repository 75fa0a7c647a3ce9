package dev.lipa.payouts.sendmoney;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.lipa.common.json.Money;
import dev.lipa.common.testsupport.FuzzedBodies;

/** {@code POST /api/sandbox/v1/send-money}'s request from any bytes: a payout request or field errors, nothing else. */
class SendMoneyRequestFuzzTests {

  @FuzzTest(maxDuration = "5s")
  void aSendMoneyRequestIsValidOrRefusedFieldByField(byte[] body) {
    FuzzedBodies.parse(body, tree -> {
      var request = SendMoneyRequest.from(tree);
      assertThat(request.amount()).isPositive().isLessThanOrEqualTo(Money.MAX);
      assertThat(request.amount().scale()).isZero();
      return request;
    });
  }
}
