package dev.lipa.collections.stk.rail.daraja;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.rails.daraja.StkQueryResult;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StkQueryVerdictsTests {

  private static final RequestId REQUEST = RequestId.random();
  private static final OrganisationId ORGANISATION = OrganisationId.of("org-1");
  private static final String CHECKOUT = "ws_CO_010320261200001234";
  private static final String MERCHANT = "29115-34620561-1";
  private static final StkPrompt PROMPT = new StkPrompt(ORGANISATION, REQUEST, "0712345678", new BigDecimal("10"),
      "KSH");
  private static final StkRequestLog.Entry SENT = new StkRequestLog.Entry(REQUEST, ORGANISATION, "174379",
      "254712345678", new BigDecimal("10.00"), StkRequestLog.State.ACCEPTED, CHECKOUT, MERCHANT,
      Instant.parse("2026-03-01T09:00:00Z"));

  private static StkQueryResult.Completed answer(String resultCode, String description) {
    return new StkQueryResult.Completed(MERCHANT, CHECKOUT, resultCode, description);
  }

  @Test
  void aPaymentSettlesThePushAsPaidWithoutAReceipt() {
    StkQueryVerdicts.Verdict verdict = StkQueryVerdicts.of(PROMPT, SENT,
        answer("0", "The service request is processed successfully."));

    assertThat(verdict).isEqualTo(new StkQueryVerdicts.Verdict.Settle(new StkRailOutcome(ORGANISATION, REQUEST,
        MERCHANT, CHECKOUT, 0, "Accepted", null, 0, "The service request is processed successfully.", null)));
  }

  @Test
  void aDocumentedFailureSettlesThePushWithDarajasCode() {
    StkQueryVerdicts.Verdict verdict = StkQueryVerdicts.of(PROMPT, SENT, answer("1037",
        "DS timeout user cannot be reached"));

    assertThat(verdict).isInstanceOfSatisfying(StkQueryVerdicts.Verdict.Settle.class, settle -> {
      assertThat(settle.outcome().resultCode()).isEqualTo(1037);
      assertThat(settle.outcome().successful()).isFalse();
      assertThat(settle.outcome().resultDescription()).isEqualTo("DS timeout user cannot be reached");
    });
  }

  static Stream<Named<StkQueryResult>> noVerdicts() {
    return Stream.of(
        Named.of("being processed", new StkQueryResult.StillProcessing("500.001.1001",
            "The transaction is being processed")),
        Named.of("still under processing", new StkQueryResult.StillProcessing("4999",
            "The transaction is still under processing")),
        Named.of("no answer", new StkQueryResult.NotAnswered("circuit breaker daraja-query is open")),
        Named.of("an undocumented code", answer("4242", "Something new")),
        Named.of("4999 read by an older connector", answer("4999", "The transaction is still under processing")));
  }

  @ParameterizedTest
  @MethodSource("noVerdicts")
  void anAnswerThatIsNoVerdictSettlesNothing(StkQueryResult answer) {
    assertThat(StkQueryVerdicts.of(PROMPT, SENT, answer)).isInstanceOf(StkQueryVerdicts.Verdict.Wait.class);
  }

  static Stream<Arguments> notThisPush() {
    StkQueryResult paid = answer("0", "ok");
    return Stream.of(
        Arguments.of(Named.of("an answer about another CheckoutRequestID", PROMPT),
            new StkQueryResult.Completed(MERCHANT, "ws_CO_010320261200009999", "0", "ok")),
        Arguments.of(Named.of("an answer naming another MerchantRequestID", PROMPT),
            new StkQueryResult.Completed("11111-22222222-1", CHECKOUT, "0", "ok")),
        Arguments.of(Named.of("a push of another amount than was sent", new StkPrompt(ORGANISATION, REQUEST,
            "0712345678", new BigDecimal("100"), "KSH")), paid),
        Arguments.of(Named.of("a push to another phone than was sent", new StkPrompt(ORGANISATION, REQUEST,
            "0712345679", new BigDecimal("10"), "KSH")), paid),
        Arguments.of(Named.of("a push of another organisation", new StkPrompt(OrganisationId.of("org-2"), REQUEST,
            "0712345678", new BigDecimal("10"), "KSH")), paid),
        Arguments.of(Named.of("another push than the log entry's", new StkPrompt(ORGANISATION, RequestId.random(),
            "0712345678", new BigDecimal("10"), "KSH")), paid));
  }

  @ParameterizedTest
  @MethodSource("notThisPush")
  void aPaidAnswerThatIsNotThisPushsSettlesNothing(StkPrompt prompt, StkQueryResult answer) {
    assertThat(StkQueryVerdicts.of(prompt, SENT, answer)).isInstanceOf(StkQueryVerdicts.Verdict.Refuse.class);
  }

  @Test
  void thePhoneNumberMayBeSpelledAnyWayDarajaTakes() {
    StkPrompt plus = new StkPrompt(ORGANISATION, REQUEST, "+254712345678", new BigDecimal("10"), "KSH");

    assertThat(StkQueryVerdicts.of(plus, SENT, answer("0", "ok"))).isInstanceOf(StkQueryVerdicts.Verdict.Settle.class);
  }
}
