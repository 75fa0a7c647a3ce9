package dev.lipa.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Enum constants by their request codes, and the codes a refusal lists. */
class CodesTests {

  enum Channel {
    TIGO("TZ-TIGO-C2B"), AIRTEL("TZ-AIRTEL-C2B");

    final String code;

    Channel(String code) {
      this.code = code;
    }
  }

  @Test
  void findsAConstantByItsExactCodeOnly() {
    assertThat(Codes.of(Channel.class, c -> c.code, "TZ-AIRTEL-C2B")).contains(Channel.AIRTEL);
    assertThat(Codes.of(Channel.class, c -> c.code, "tz-airtel-c2b")).isEmpty();
    assertThat(Codes.of(Channel.class, c -> c.code, " TZ-AIRTEL-C2B")).isEmpty();
    assertThat(Codes.of(Channel.class, c -> c.code, "AIRTEL")).isEmpty();
    assertThat(Codes.of(Channel.class, c -> c.code, null)).isEmpty();
  }

  @Test
  void listsTheCodesInDeclarationOrder() {
    assertThat(Codes.list(Channel.class, c -> c.code, " or ")).isEqualTo("TZ-TIGO-C2B or TZ-AIRTEL-C2B");
    assertThat(Codes.list(Channel.class, Enum::name, ", ")).isEqualTo("TIGO, AIRTEL");
  }
}
