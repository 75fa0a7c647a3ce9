package dev.lipa.common.phone;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of mobile-number reading: it never throws, and every accepted spelling of a number means one number. */
class MobileNumberProperties {

  @Provide
  Arbitrary<String> anyText() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(40),
        Arbitraries.strings().withChars("+0123456789 -()").ofMaxLength(20),
        Arbitraries.strings().numeric().ofMinLength(9).ofMaxLength(13).map(d -> "+" + d));
  }

  /** National significant numbers of the shape a mobile number of each country has (valid or not). */
  @Provide
  Arbitrary<String> nationalNumbers() {
    return Arbitraries.oneOf(
        Arbitraries.strings().numeric().ofLength(8).map(d -> "254" + "7" + d),
        Arbitraries.strings().numeric().ofLength(8).map(d -> "254" + "1" + d),
        Arbitraries.strings().numeric().ofLength(8).map(d -> "255" + "6" + d),
        Arbitraries.strings().numeric().ofLength(8).map(d -> "255" + "7" + d),
        Arbitraries.strings().numeric().ofLength(8).map(d -> "256" + "7" + d));
  }

  @Property(tries = 3000)
  void neverThrowsWhateverItIsGiven(@ForAll("anyText") String text) {
    for (MobileCountry country : MobileCountry.values()) {
      MobileNumber.parse(text, country);
      MobileNumber.otherCountryOf(text, country);
    }
    MobileNumber.parseAny(text);
  }

  @Property(tries = 2000)
  void normalisingIsIdempotent(@ForAll("anyText") String text) {
    for (MobileCountry country : MobileCountry.values()) {
      MobileNumber.parse(text, country).ifPresent(number -> {
        assertThat(MobileNumber.parse(number.value(), country)).contains(number);
        assertThat(MobileNumber.parse("+" + number.value(), country)).contains(number);
      });
    }
  }

  @Property(tries = 2000)
  void everyAcceptedSpellingOfANumberNormalisesToTheSameDigits(@ForAll("nationalNumbers") String digits) {
    MobileCountry country = List.of(MobileCountry.values()).stream()
        .filter(c -> digits.startsWith(Integer.toString(c.countryCode()))).findFirst().orElseThrow();
    String national = digits.substring(3);
    List<Optional<MobileNumber>> spellings = List.of(MobileNumber.parse(digits, country),
        MobileNumber.parse("+" + digits, country), MobileNumber.parse("0" + national, country));
    // a number is valid (or not) whatever its spelling, and a valid one is always the same digits
    assertThat(spellings).allMatch(s -> s.isPresent() == spellings.get(0).isPresent());
    spellings.get(0).ifPresent(number -> {
      assertThat(number.value()).isEqualTo(digits);
      assertThat(spellings).allMatch(s -> s.orElseThrow().equals(number));
    });
  }
}
