package dev.lipa.checkout.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.web.ValidationException;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

class SandboxCardsTests {

  private static final YearMonth NOW = YearMonth.of(2026, 11);

  @Test
  void theTestNumbersPickTheirOutcomesAndKeepOnlyBrandAndLast4() {
    assertThat(SandboxCards.check("4242 4242 4242 4242", "12/29", "123", NOW))
        .isEqualTo(new SandboxCards.Card("VISA", "4242", SandboxCards.Outcome.SUCCEEDS));
    assertThat(SandboxCards.check("4000000000000002", "11/26", "1234", NOW).outcome())
        .isEqualTo(SandboxCards.Outcome.DECLINED);
    assertThat(SandboxCards.check("4000-0025-0000-3155", "01/2030", "123", NOW).outcome())
        .isEqualTo(SandboxCards.Outcome.REQUIRES_AUTHENTICATION);
  }

  @Test
  void refusesAFailedLuhnCheckAnExpiredCardAndAShortCvc() {
    assertThatThrownBy(() -> SandboxCards.check("4242424242424241", "10/26", "12", NOW))
        .isInstanceOfSatisfying(ValidationException.class, e ->
            assertThat(e.errors()).containsOnlyKeys("cardNumber", "expiry", "cvc"));
  }

  @Test
  void refusesAValidCardThatIsNoTestCard() {
    assertThatThrownBy(() -> SandboxCards.check("5555555555554444", "12/29", "123", NOW))
        .isInstanceOfSatisfying(ValidationException.class, e ->
            assertThat(e.errors().get("cardNumber").getFirst()).contains("test cards"));
  }

  @Test
  void luhnAndBrands() {
    assertThat(SandboxCards.luhn("79927398713")).isTrue();
    assertThat(SandboxCards.luhn("79927398710")).isFalse();
    assertThat(SandboxCards.brand("5555555555554444")).isEqualTo("MASTERCARD");
    assertThat(SandboxCards.brand("378282246310005")).isEqualTo("AMEX");
  }
}
