package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The sandbox's outcomes as the reference payment decides them. */
class ReferenceOutcomesTests {

  @Test
  void everyNumberPaysButTheSandboxsFailingOnes() {
    String requestId = UUID.randomUUID().toString();

    ReferenceOutcomes.Result paid = ReferenceOutcomes.decide(requestId, "254710000001");
    assertThat(paid.successful()).isTrue();
    assertThat(paid.status()).isEqualTo("SUCCESS");
    assertThat(paid.resultCode()).isZero();
    assertThat(paid.receipt()).matches("[A-Z][A-Z0-9]{9}");

    ReferenceOutcomes.Result cancelled = ReferenceOutcomes.decide(requestId, "254700001032");
    assertThat(cancelled.status()).isEqualTo("FAILED");
    assertThat(cancelled.resultCode()).isEqualTo(1032);
    assertThat(cancelled.receipt()).isNull();
    assertThat(ReferenceOutcomes.decide(requestId, "254700000001").resultCode()).isEqualTo(1);
    assertThat(ReferenceOutcomes.decide(requestId, "254700001037").resultCode()).isEqualTo(1037);
    assertThat(ReferenceOutcomes.decide(requestId, "254700002001").resultCode()).isEqualTo(2001);
  }
}
