package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Which checkout events credit what, read from the event checkout-service publishes (its pinned shape). */
class CheckoutCreditsTests {

  /** Decimals as BigDecimal, as the service's mapper reads them (common's JsonAutoConfiguration). */
  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  /** checkout.succeeded as checkout-service writes it (PaymentFlowIntegrationTests pins the producer's side). */
  static String event(String type, String amount, String currency, String method) {
    return """
        {"eventId":"9b7c7a52-3a57-4d1e-9d0f-2f5d1c1a0b11","type":"%s","version":1,\
        "occurredAt":"2026-03-01T09:00:05.123456Z","organisationId":"org-1","data":{\
        "checkoutSessionId":"5f0c6d4e-8a1b-4c2d-9e3f-0a1b2c3d4e5f","checkoutRef":"cs_abc","status":"SUCCEEDED",\
        "amount":%s,"currency":"%s","externalReference":"ORD-42","paymentReference":"PAY-42",\
        "attempt":{"number":1,"paymentMethod":"%s","status":"SUCCEEDED","cardBrand":"VISA","cardLast4":"4242",\
        "stkRequestId":null,"reason":null}}}""".formatted(type, amount, currency, method);
  }

  private static JsonNode read(String text) {
    return JSON.readTree(text);
  }

  @Test
  void aCardPaymentCreditsItsAmountOnceKeyedByTheSession() {
    Movement credit = CheckoutCredits.credit(read(event("checkout.succeeded", "1500.50", "KES", "CARD")))
        .orElseThrow();

    assertThat(credit).isEqualTo(new Movement(OrganisationId.of("org-1"), Currency.KSH, MovementKind.CREDIT,
        "checkout.succeeded:5f0c6d4e-8a1b-4c2d-9e3f-0a1b2c3d4e5f", new BigDecimal("1500.50")));
    assertThat(credit.id()).isEqualTo("checkout.succeeded:5f0c6d4e-8a1b-4c2d-9e3f-0a1b2c3d4e5f:credit");
  }

  @ParameterizedTest
  @MethodSource("currencies")
  void creditsTheLedgerAccountOfTheCheckoutCurrency(String checkoutCurrency, Currency account) {
    assertThat(CheckoutCredits.credit(read(event("checkout.succeeded", "25.99", checkoutCurrency, "CARD")))
        .orElseThrow().currency()).isEqualTo(account);
  }

  static Stream<Arguments> currencies() {
    return Stream.of(Arguments.of("KES", Currency.KSH), Arguments.of("KSH", Currency.KSH),
        Arguments.of("USD", Currency.USD));
  }

  @ParameterizedTest
  @MethodSource("creditNothing")
  void creditsNothingForOtherEventsOrAnMpesaPayment(String event) {
    assertThat(CheckoutCredits.credit(read(event))).isEmpty();
  }

  static Stream<Arguments> creditNothing() {
    return Stream.of(
        Arguments.of(named("an M-Pesa payment (credited from its stk.succeeded)",
            event("checkout.succeeded", "1500", "KES", "MPESA_STK"))),
        Arguments.of(named("a card attempt still processing", event("checkout.processing", "1500", "KES", "CARD"))),
        Arguments.of(named("a failed session", event("checkout.failed", "1500", "KES", "CARD"))),
        Arguments.of(named("an expired session", event("checkout.expired", "1500", "KES", "CARD"))),
        Arguments.of(named("a late payment (an STK push: credited from its stk.succeeded)",
            event("checkout.late_payment", "1500", "KES", "MPESA_STK"))),
        Arguments.of(named("no type", "{\"data\":{}}")));
  }

  @ParameterizedTest
  @MethodSource("unusable")
  void refusesACardPaymentItCannotCredit(String event) {
    assertThatThrownBy(() -> CheckoutCredits.credit(read(event))).isInstanceOf(IllegalArgumentException.class);
  }

  static Stream<Arguments> unusable() {
    String good = event("checkout.succeeded", "10", "KES", "CARD");
    return Stream.of(
        Arguments.of(named("no organisation", good.replace("\"organisationId\":\"org-1\",", ""))),
        Arguments.of(named("no session id", good.replace("5f0c6d4e-8a1b-4c2d-9e3f-0a1b2c3d4e5f", ""))),
        Arguments.of(named("an amount as a string", event("checkout.succeeded", "\"10\"", "KES", "CARD"))),
        Arguments.of(named("a zero amount", event("checkout.succeeded", "0", "KES", "CARD"))),
        Arguments.of(named("a negative amount", event("checkout.succeeded", "-5", "KES", "CARD"))),
        Arguments.of(named("more digits than Decimal128 keeps",
            event("checkout.succeeded", "1234567890123456789012345678901234567", "KES", "CARD"))),
        Arguments.of(named("a currency without a ledger account", event("checkout.succeeded", "10", "EUR", "CARD"))));
  }

  @Test
  void readsKesAsTheLedgersKsh() {
    assertThat(CheckoutCredits.ledgerCurrency("KES")).contains(Currency.KSH);
    assertThat(CheckoutCredits.ledgerCurrency("TZS")).contains(Currency.TZS);
    assertThat(CheckoutCredits.ledgerCurrency("EUR")).isEmpty();
  }
}
