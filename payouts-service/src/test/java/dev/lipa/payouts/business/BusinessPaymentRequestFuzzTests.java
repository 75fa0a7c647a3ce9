package dev.lipa.payouts.business;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.lipa.common.json.Money;
import dev.lipa.common.testsupport.FuzzedBodies;

/** Till and paybill requests from any bytes: a payout request or field errors, nothing else. */
class BusinessPaymentRequestFuzzTests {

  @FuzzTest(maxDuration = "5s")
  void aTillOrPaybillRequestIsValidOrRefusedFieldByField(byte[] body) {
    for (var reader : java.util.List.<java.util.function.Function<tools.jackson.databind.JsonNode, ?>>of(
        BusinessPaymentRequest::till, BusinessPaymentRequest::paybill)) {
      FuzzedBodies.parse(body, tree -> {
        var request = (dev.lipa.payouts.payout.PayoutRequest) reader.apply(tree);
        assertThat(request.amount()).isPositive().isLessThanOrEqualTo(Money.MAX);
        return request;
      });
    }
  }
}
