package dev.lipa.common.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.testsupport.FuzzedBodies;
import java.math.BigDecimal;
import tools.jackson.databind.JsonNode;

/**
 * The JSON number path of every create request: the body is read, fingerprinted for its Idempotency-Key and its amount
 * read by the common rule. Seeds and crash reproducers: {@code JsonNumberFuzzTestsInputs} beside this class.
 */
class JsonNumberFuzzTests {

  @FuzzTest(maxDuration = "5s")
  void aBodyIsFingerprintedAndItsAmountReadOrRefusedNeverAnotherException(byte[] body) {
    JsonNode tree = FuzzedBodies.read(body);
    if (tree == null) {
      return;
    }
    // never expanded: a number costs its own digits plus a bounded plain form, whatever its exponent
    assertThat(RequestFingerprint.canonical(tree).length()).isLessThanOrEqualTo(2 * 1024 + 40 * body.length);
    assertThat(RequestFingerprint.of(tree)).hasSize(64);
    if (!tree.isObject()) {
      return;
    }
    for (int decimals = 0; decimals <= Money.MAX_DECIMALS; decimals++) {
      JsonFields fields = JsonFields.of(tree);
      BigDecimal amount = fields.positiveAmount("amount", true, decimals, Money.MAX);
      if (amount == null) {
        assertThat(fields.errors().asMap()).containsOnlyKeys("amount");
      } else {
        assertThat(amount).isPositive().isLessThanOrEqualTo(Money.MAX);
        assertThat(Math.max(0, amount.stripTrailingZeros().scale())).isLessThanOrEqualTo(decimals);
      }
    }
    try {
      assertThat(Money.fromEvent(tree.get("amount"))).isPositive();
    } catch (IllegalArgumentException e) {
      // refused like an unreadable event
    }
  }
}
