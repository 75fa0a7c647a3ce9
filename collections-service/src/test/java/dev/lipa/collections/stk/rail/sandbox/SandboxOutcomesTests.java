package dev.lipa.collections.stk.rail.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SandboxOutcomesTests {

  private static final Instant NOW = Instant.parse("2026-03-01T07:20:36Z");
  private static final ZoneId NAIROBI = ZoneId.of("Africa/Nairobi");

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(named("insufficient funds", "254700000001"), 1,
            "The balance is insufficient for the transaction."),
        Arguments.of(named("cancelled by the customer", "254700001032"), 1032, "Request cancelled by user"),
        Arguments.of(named("unreachable", "254700001037"), 1037, "DS timeout user cannot be reached"),
        Arguments.of(named("wrong PIN", "254700002001"), 2001, "The initiator information is invalid."));
  }

  @ParameterizedTest(name = "{0} fails with its result code")
  @MethodSource("failures")
  void magicNumbersFail(String phone, int code, String description) {
    StkRailOutcome outcome = SandboxOutcomes.decide(prompt(phone), NOW, NAIROBI);

    assertThat(outcome.successful()).isFalse();
    assertThat(outcome.resultCode()).isEqualTo(code);
    assertThat(outcome.resultDescription()).isEqualTo(description);
    assertThat(outcome.receipt()).isNull();
    assertThat(outcome.responseCode()).isZero();
  }

  static Stream<Arguments> successes() {
    return Stream.of(
        Arguments.of(named("Daraja's test number", "254708374149")),
        Arguments.of(named("any other Safaricom number", "254712345678")),
        Arguments.of(named("a 2541 number", "254110345678")));
  }

  @ParameterizedTest(name = "{0} pays")
  @MethodSource("successes")
  void otherNumbersPayWithAnMpesaLikeReceipt(String phone) {
    StkRailOutcome outcome = SandboxOutcomes.decide(prompt(phone), NOW, NAIROBI);

    assertThat(outcome.successful()).isTrue();
    assertThat(outcome.resultDescription()).isEqualTo("The service request is processed successfully.");
    assertThat(outcome.receipt()).matches("[A-Z][A-Z0-9]{9}");
  }

  @Test
  void reportsDarajaLikeAcceptanceFields() {
    StkRailOutcome outcome = SandboxOutcomes.decide(prompt("254708374149"), NOW, NAIROBI);

    assertThat(outcome.merchantRequestId()).matches("\\d{1,5}-\\d{8}-\\d");
    assertThat(outcome.checkoutRequestId()).matches("ws_CO_01032026102036\\d{4}");
    assertThat(outcome.responseCode()).isZero();
    assertThat(outcome.responseDescription()).isEqualTo("Success. Request accepted for processing");
    assertThat(outcome.customerMessage()).isEqualTo("Success. Request accepted for processing");
  }

  @Test
  void answersTheSameWhenAskedAgain() {
    StkPrompt prompt = prompt("254708374149");

    StkRailOutcome first = SandboxOutcomes.decide(prompt, NOW, NAIROBI);
    StkRailOutcome again = SandboxOutcomes.decide(prompt, NOW.plusSeconds(90), NAIROBI);

    assertThat(again.receipt()).isEqualTo(first.receipt());
    assertThat(again.merchantRequestId()).isEqualTo(first.merchantRequestId());
    assertThat(again.resultCode()).isEqualTo(first.resultCode());
  }

  private static StkPrompt prompt(String phone) {
    return new StkPrompt("org-1", UUID.randomUUID(), phone, new BigDecimal("10"), "KSH");
  }
}
