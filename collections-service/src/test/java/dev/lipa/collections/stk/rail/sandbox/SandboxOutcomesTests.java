package dev.lipa.collections.stk.rail.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.collections.stk.StkPushRequest;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class SandboxOutcomesTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final Instant NOW = Instant.parse("2026-03-01T07:20:36Z");
  private static final ZoneId NAIROBI = ZoneId.of("Africa/Nairobi");

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(named("insufficient funds", "254700000001"), 1,
            "The balance is insufficient for the transaction."),
        Arguments.of(named("cancelled by the customer", "254700001032"), 1032, "Request cancelled by user"),
        Arguments.of(named("unreachable", "254700001037"), 1037, "DS timeout user cannot be reached"),
        Arguments.of(named("wrong PIN", "254700002001"), 2001, "The initiator information is invalid."),
        Arguments.of(named("TZ Tigo insufficient funds", "255710000001"), 1,
            "The balance is insufficient for the transaction."),
        Arguments.of(named("TZ Tigo cancelled", "255710001032"), 1032, "Request cancelled by user"),
        Arguments.of(named("TZ Tigo unreachable", "255710001037"), 1037, "DS timeout user cannot be reached"),
        Arguments.of(named("TZ Tigo wrong PIN", "255710002001"), 2001, "The initiator information is invalid."),
        Arguments.of(named("TZ Airtel insufficient funds", "255680000001"), 1,
            "The balance is insufficient for the transaction."),
        Arguments.of(named("TZ Airtel cancelled", "255680001032"), 1032, "Request cancelled by user"),
        Arguments.of(named("TZ Airtel unreachable", "255680001037"), 1037, "DS timeout user cannot be reached"),
        Arguments.of(named("TZ Airtel wrong PIN", "255680002001"), 2001, "The initiator information is invalid."),
        Arguments.of(named("UG insufficient funds", "256700000001"), 1,
            "The balance is insufficient for the transaction."),
        Arguments.of(named("UG cancelled", "256700001032"), 1032, "Request cancelled by user"),
        Arguments.of(named("UG unreachable", "256700001037"), 1037, "DS timeout user cannot be reached"),
        Arguments.of(named("UG wrong PIN", "256700002001"), 2001, "The initiator information is invalid."));
  }

  static Stream<Arguments> magicNumbersOfEveryCountry() {
    return Stream.of(
        Arguments.of(named("KE", SandboxOutcomes.INSUFFICIENT_FUNDS), "KSH", null),
        Arguments.of(named("KE", SandboxOutcomes.CANCELLED_BY_USER), "KSH", null),
        Arguments.of(named("KE", SandboxOutcomes.UNREACHABLE), "KSH", null),
        Arguments.of(named("KE", SandboxOutcomes.WRONG_PIN), "KSH", null),
        Arguments.of(named("TZ Tigo", SandboxOutcomes.TZ_TIGO_INSUFFICIENT_FUNDS), "TZS", "TZ-TIGO-C2B"),
        Arguments.of(named("TZ Tigo", SandboxOutcomes.TZ_TIGO_CANCELLED_BY_USER), "TZS", "TZ-TIGO-C2B"),
        Arguments.of(named("TZ Tigo", SandboxOutcomes.TZ_TIGO_UNREACHABLE), "TZS", "TZ-TIGO-C2B"),
        Arguments.of(named("TZ Tigo", SandboxOutcomes.TZ_TIGO_WRONG_PIN), "TZS", "TZ-TIGO-C2B"),
        Arguments.of(named("TZ Airtel", SandboxOutcomes.TZ_AIRTEL_INSUFFICIENT_FUNDS), "TZS", "TZ-AIRTEL-C2B"),
        Arguments.of(named("TZ Airtel", SandboxOutcomes.TZ_AIRTEL_CANCELLED_BY_USER), "TZS", "TZ-AIRTEL-C2B"),
        Arguments.of(named("TZ Airtel", SandboxOutcomes.TZ_AIRTEL_UNREACHABLE), "TZS", "TZ-AIRTEL-C2B"),
        Arguments.of(named("TZ Airtel", SandboxOutcomes.TZ_AIRTEL_WRONG_PIN), "TZS", "TZ-AIRTEL-C2B"),
        Arguments.of(named("UG", SandboxOutcomes.UG_INSUFFICIENT_FUNDS), "UGX", null),
        Arguments.of(named("UG", SandboxOutcomes.UG_CANCELLED_BY_USER), "UGX", null),
        Arguments.of(named("UG", SandboxOutcomes.UG_UNREACHABLE), "UGX", null),
        Arguments.of(named("UG", SandboxOutcomes.UG_WRONG_PIN), "UGX", null));
  }

  /** A magic number a merchant cannot send is no use: each one passes the request rules of its currency. */
  @ParameterizedTest(name = "{0} {1} passes the {2} rules")
  @MethodSource("magicNumbersOfEveryCountry")
  void everyMagicNumberIsAcceptedForItsCurrencyAndChannel(String phone, String currency, String channel) {
    ObjectNode body = JSON.createObjectNode().put("description", "Test").put("phoneNumber", "+" + phone)
        .put("amount", 1000).put("accountReference", "INV1").put("currencyCode", currency)
        .put("callbackUrl", "https://merchant.example/cb").put("narration", "n").put("customerName", "c");
    if (channel != null) {
      body.put("channel", channel);
    }

    assertThat(StkPushRequest.from(body).phoneNumber().value()).isEqualTo(phone);
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
    return new StkPrompt(OrganisationId.of("org-1"), RequestId.random(), phone, new BigDecimal("10"), "KSH");
  }
}
