package dev.lipa.common.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.node.JsonNodeFactory;

/** The canonical form of numbers is the one fingerprints were stored with, for every number that had a short one. */
class RequestFingerprintProperties {

  @Provide
  Arbitrary<BigDecimal> ordinaryNumbers() {
    Arbitrary<BigInteger> unscaled = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(30)
        .map(BigInteger::new).flatMap(n -> Arbitraries.of(n, n.negate()));
    return Combinators.combine(unscaled, Arbitraries.integers().between(-990, 990)).as(BigDecimal::new);
  }

  @Property(tries = 3000)
  void writesOrdinaryNumbersAsFingerprintsAlwaysHave(@ForAll("ordinaryNumbers") BigDecimal number) {
    String before = number.signum() == 0 ? "0" : number.stripTrailingZeros().toPlainString();
    assertThat(RequestFingerprint.canonical(JsonNodeFactory.instance.numberNode(number))).isEqualTo(before);
  }
}
