package dev.lipa.collections.stk.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.lipa.collections.stk.StkListQuery;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ValidationException;
import java.time.ZoneId;

/** The query parameters of {@code GET /api/sandbox/v1/stk/all}, any text in each: a query or a 400 naming them. */
class StkListParametersFuzzTests {

  @FuzzTest(maxDuration = "5s")
  void theQueryIsReadOrEveryBadParameterNamed(FuzzedDataProvider data) {
    StkListParameters parameters = new StkListParameters(data.consumeString(20), data.consumeString(40),
        data.consumeString(40), data.consumeString(8), data.consumeString(20), data.consumeString(24),
        data.consumeRemainingAsString());
    try {
      StkListQuery query = parameters.toQuery(OrganisationId.of("org"), ZoneId.of("Africa/Nairobi"));
      assertThat((long) query.page() * query.size()).isBetween(0L, (long) Integer.MAX_VALUE);
    } catch (ValidationException e) {
      assertThat(e.errors()).isNotEmpty();
    }
  }
}
