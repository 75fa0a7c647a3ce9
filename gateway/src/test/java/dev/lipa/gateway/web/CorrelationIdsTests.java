package dev.lipa.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class CorrelationIdsTests {

  @ParameterizedTest
  @ValueSource(strings = {"a", "req-1", "A.b_C-9", "0123456789012345678901234567890123456789012345678901234567890123"})
  void acceptsShortIdsOfLettersDigitsDotsDashesAndUnderscores(String id) {
    assertThat(CorrelationIds.isSafe(id)).isTrue();
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"has space", "new\nline", "x\r\nSet-Cookie: a=b", "semi;colon", "ünïcode", "{json}",
      "01234567890123456789012345678901234567890123456789012345678901234"})
  void refusesAnythingThatCouldForgeALogLineOrHeader(String id) {
    assertThat(CorrelationIds.isSafe(id)).isFalse();
  }

  @Test
  void generatesDistinctUuidShapedIds() {
    String first = CorrelationIds.next();

    assertThat(first).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(CorrelationIds.isSafe(first)).isTrue();
    assertThat(CorrelationIds.next()).isNotEqualTo(first);
  }
}
