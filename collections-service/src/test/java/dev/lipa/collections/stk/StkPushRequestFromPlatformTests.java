package dev.lipa.collections.stk;

import static dev.lipa.collections.stk.StkPushRequestCountryTests.kenyan;
import static dev.lipa.collections.stk.StkPushRequestCountryTests.tanzanian;
import static dev.lipa.collections.stk.StkPushRequestCountryTests.ugandan;
import static dev.lipa.collections.stk.StkPushRequestCountryTests.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.web.ValidationException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The STK request another platform service makes for an organisation (checkout's M-Pesa payments): the merchant rules
 * without a callback, and the channel of a Tanzanian number's own network when none is named.
 */
class StkPushRequestFromPlatformTests {

  private static Map<String, List<String>> errorsOf(JsonNode body) {
    try {
      StkPushRequest.fromPlatform(body);
    } catch (ValidationException e) {
      return e.errors();
    }
    throw new AssertionError("expected a refusal of " + body);
  }

  /** A Tanzanian platform request for this number, without a channel. */
  private static ObjectNode tanzanianWithoutChannel(String phone) {
    ObjectNode body = withoutCallback(tanzanian());
    body.remove("channel");
    body.put("phoneNumber", phone);
    return body;
  }

  private static ObjectNode withoutCallback(ObjectNode body) {
    body.remove("callbackUrl");
    return body;
  }

  @Nested
  class Callback {

    @Test
    void needsNoCallbackUrl() {
      StkPushRequest request = StkPushRequest.fromPlatform(withoutCallback(kenyan()));

      assertThat(request.callbackUrl()).isNull();
      assertThat(request.phoneNumber().value()).isEqualTo("254712345678");
    }

    @Test
    void ignoresACallbackUrlInTheBodyAndKeepsNone() {
      StkPushRequest request = StkPushRequest.fromPlatform(with(kenyan(), "callbackUrl", "\"not a url\""));

      assertThat(request.callbackUrl()).isNull();
    }

    @Test
    void aMerchantRequestStillNeedsOne() {
      assertThatThrownBy(() -> StkPushRequest.from(withoutCallback(kenyan())))
          .isInstanceOfSatisfying(ValidationException.class,
              e -> assertThat(e.errors()).containsOnlyKeys("callbackUrl"));
    }
  }

  @Nested
  class TanzanianChannel {

    @Test
    void isTheNetworkOfATigoNumberWhenNoneIsNamed() {
      StkPushRequest request = StkPushRequest.fromPlatform(tanzanianWithoutChannel("0712345678"));

      assertThat(request.channel()).isEqualTo(TzChannel.TIGO);
    }

    @Test
    void isTheNetworkOfAnAirtelNumberWhenTheChannelIsNull() {
      ObjectNode body = tanzanianWithoutChannel("+255682345678");
      body.putNull("channel");

      StkPushRequest request = StkPushRequest.fromPlatform(body);

      assertThat(request.channel()).isEqualTo(TzChannel.AIRTEL);
    }

    @Test
    void refusesANumberOfANetworkNoChannelReachesNamingItsNetwork() {
      assertThat(errorsOf(tanzanianWithoutChannel("0742345678")))
          .containsOnlyKeys("phoneNumber")
          .containsEntry("phoneNumber", List.of("phoneNumber 255742345678 belongs to Vodacom; only Tigo (255 followed "
              + "by 65, 67, 71, 77) or Airtel (255 followed by 68, 69, 78) numbers can be prompted"));
    }

    @Test
    void aNamedChannelFollowsTheMerchantRule() {
      assertThat(errorsOf(with(tanzanian(), "phoneNumber", "\"0682345678\""))).containsOnlyKeys("phoneNumber");
      assertThat(StkPushRequest.fromPlatform(with(tanzanian(), "channel", "\"TZ-TIGO-C2B\"")).channel())
          .isEqualTo(TzChannel.TIGO);
    }

    @Test
    void aNumberOfAnotherCountryIsRefusedWithoutAChannelError() {
      assertThat(errorsOf(tanzanianWithoutChannel("+254712345678")))
          .containsOnlyKeys("phoneNumber")
          .hasEntrySatisfying("phoneNumber", messages -> assertThat(messages).singleElement().asString()
              .contains("Tanzanian").doesNotContain("channel"));
    }
  }

  @Nested
  class MerchantRules {

    @Test
    void applyToEveryOtherField() {
      ObjectNode body = withoutCallback(kenyan());
      body.remove("accountReference");
      body.put("description", "far longer than thirteen");

      assertThat(errorsOf(body)).containsOnlyKeys("accountReference", "description");
    }

    @Test
    void ofUgandaStillNeedNarrationAndCustomerName() {
      ObjectNode body = withoutCallback(ugandan());
      body.remove("narration");

      assertThat(errorsOf(body)).containsOnlyKeys("narration");
    }
  }
}
