package dev.lipa.checkout.page;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.lipa.common.web.ValidationException;
import java.time.YearMonth;

/** The hosted page's sandbox card fields, any text in each: a card outcome or a refusal naming fields. */
class SandboxCardsFuzzTests {

  @FuzzTest(maxDuration = "5s")
  void aCardIsReadOrRefused(FuzzedDataProvider data) {
    try {
      SandboxCards.check(data.consumeString(40), data.consumeString(12), data.consumeRemainingAsString(),
          YearMonth.of(2026, 3));
    } catch (ValidationException e) {
      // a refusal naming the fields
    }
  }
}
