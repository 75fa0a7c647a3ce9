package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.lipa.common.json.Money;
import dev.lipa.common.testsupport.FuzzedBodies;

/**
 * {@code POST /api/sandbox/v1/stk/new}'s request, read from any bytes as the service reads them: a valid request or a
 * validation error naming fields, never another exception. Seeds and crash reproducers:
 * {@code StkPushRequestFuzzTestsInputs} beside this class.
 */
class StkPushRequestFuzzTests {

  @FuzzTest(maxDuration = "5s")
  void aCreateRequestIsValidOrRefusedFieldByField(byte[] body) {
    FuzzedBodies.parse(body, tree -> {
      StkPushRequest request = StkPushRequest.from(tree);
      assertThat(request.amount()).isPositive().isLessThanOrEqualTo(Money.MAX);
      assertThat(request.amount().scale()).isZero();
      assertThat(request.phoneNumber().value()).matches("25[456][0-9]{9}");
      return request;
    });
  }
}
