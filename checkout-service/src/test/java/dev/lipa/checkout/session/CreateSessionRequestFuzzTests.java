package dev.lipa.checkout.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.lipa.common.testsupport.FuzzedBodies;

/** A checkout session's request from any bytes: a valid request or field errors, nothing else. */
class CreateSessionRequestFuzzTests {

  @FuzzTest(maxDuration = "5s")
  void aSessionRequestIsValidOrRefusedFieldByField(byte[] body) {
    FuzzedBodies.parse(body, tree -> {
      CreateSessionRequest request = CreateSessionRequest.from(tree);
      assertThat(request.amount()).isPositive().isLessThanOrEqualTo(CreateSessionRequest.AMOUNT_MAX);
      assertThat(request.currency().allowsScaleOf(request.amount())).isTrue();
      return request;
    });
  }
}
