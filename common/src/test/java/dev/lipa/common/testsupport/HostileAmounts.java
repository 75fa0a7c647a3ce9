package dev.lipa.common.testsupport;

import static org.junit.jupiter.api.Named.named;

import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The amounts a probe sent a running platform (issue 12) and their kin, as JSON values: every money path of every
 * service must answer each with a 400 naming the field, having done no work. A service adds its own ceiling.
 */
public final class HostileAmounts {

  private HostileAmounts() {
  }

  /** Each as a named JSON value, for {@code @MethodSource}. */
  public static Stream<Arguments> all() {
    return Stream.of(
        Arguments.of(named("10^100000000", "1e100000000")),
        Arguments.of(named("10^-100000000", "1e-100000000")),
        Arguments.of(named("a huge negative exponent", "-1e-2147483647")),
        Arguments.of(named("an exponent beyond an int", "1e9999999999")),
        Arguments.of(named("zeros that overflow a scale when stripped", "100E2147483647")),
        Arguments.of(named("35 digits", "12345678901234567890123456789012345")),
        Arguments.of(named("NaN", "NaN")),
        Arguments.of(named("Infinity", "Infinity")),
        Arguments.of(named("NaN as a string", "\"NaN\"")),
        Arguments.of(named("Infinity as a string", "\"Infinity\"")),
        Arguments.of(named("minus zero", "-0")));
  }

  /** A response is the 400 envelope (or checkout error body) naming exactly {@code field}. */
  public static void assertRefusedNaming(TestHttp.Response response, String field) {
    if (response.status() != 400 || !response.json().path("errors").has(field)
        || response.json().path("errors").size() != 1) {
      throw new AssertionError("expected a 400 naming only " + field + ", got " + response.status() + ": "
          + response.body());
    }
  }
}
