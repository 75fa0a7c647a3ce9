package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.i18n.phonenumbers.PhoneNumberToCarrierMapper;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.Phonenumber.PhoneNumber;
import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Our Tanzanian prefix table against libphonenumber's carrier data. */
class TzChannelTests {

  private static final PhoneNumberUtil PHONES = PhoneNumberUtil.getInstance();
  private static final PhoneNumberToCarrierMapper CARRIERS = PhoneNumberToCarrierMapper.getInstance();
  /** The names the carrier data uses for the networks of our channels. */
  private static final Map<TzChannel, String> CARRIER_NAMES = Map.of(TzChannel.TIGO, "tiGO", TzChannel.AIRTEL,
      "Airtel");

  @Test
  void everyTanzanianMobilePrefixBelongsToTheChannelWhoseCarrierTheDataNames() throws Exception {
    for (int prefix = 60; prefix <= 79; prefix++) {
      PhoneNumber number = PHONES.parse("+255" + prefix + "2345678", "TZ");
      if (!PHONES.isValidNumber(number)) {
        continue;
      }
      String carrier = CARRIERS.getNameForNumber(number, Locale.ENGLISH);
      MobileNumber mobile = new MobileNumber("255" + prefix + "2345678", MobileCountry.TANZANIA);
      for (TzChannel channel : TzChannel.values()) {
        assertThat(channel.reaches(mobile)).as("%s on %s (carrier data: %s)", mobile, channel, carrier)
            .isEqualTo(CARRIER_NAMES.get(channel).equals(carrier));
      }
    }
  }

  @Test
  void everyPrefixOfTheTableIsAValidTanzanianMobileRange() {
    for (TzChannel channel : TzChannel.values()) {
      for (String prefix : channel.prefixes()) {
        assertThat(MobileNumber.parse("0" + prefix + "2345678", MobileCountry.TANZANIA)).as(prefix).isPresent();
      }
    }
  }

  @Test
  void namesTheNetworkOfANumberOutsideBothChannels() {
    assertThat(TzChannel.networkOf(new MobileNumber("255752345678", MobileCountry.TANZANIA))).isEqualTo("Vodacom");
    assertThat(TzChannel.networkOf(new MobileNumber("255682345678", MobileCountry.TANZANIA))).isEqualTo("Airtel");
  }
}
