package dev.lipa.common.phone;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Tanzanian networks by prefix: each prefix names at most one network, and only Tanzanian numbers are reached. */
class TzNetworkTests {

  private static MobileNumber tz(String digits) {
    return MobileNumber.parse(digits, MobileCountry.TANZANIA).orElseThrow();
  }

  @Test
  void aNumberIsReachedByTheNetworkOfItsPrefixOnly() {
    MobileNumber tigo = tz("255712345678");
    assertThat(TzNetwork.TIGO.reaches(tigo)).isTrue();
    assertThat(TzNetwork.AIRTEL.reaches(tigo)).isFalse();
    assertThat(TzNetwork.ofPrefix(tigo.networkPrefix())).contains(TzNetwork.TIGO);
    assertThat(TzNetwork.ofPrefix(tz("255612345678").networkPrefix())).contains(TzNetwork.HALOTEL);
  }

  @Test
  void aNumberOfAnotherCountryIsReachedByNone() {
    MobileNumber kenyan = MobileNumber.parse("254712345678", MobileCountry.KENYA).orElseThrow();
    for (TzNetwork network : TzNetwork.values()) {
      assertThat(network.reaches(kenyan)).as(network.name()).isFalse();
    }
  }

  @Test
  void noPrefixBelongsToTwoNetworks() {
    Set<String> seen = new HashSet<>();
    for (TzNetwork network : TzNetwork.values()) {
      for (String prefix : network.prefixes()) {
        assertThat(seen.add(prefix)).as("prefix %s", prefix).isTrue();
      }
    }
    assertThat(TzNetwork.ofPrefix("60")).isEmpty();
  }

  @Test
  void describesANetworkForARefusal() {
    assertThat(TzNetwork.AIRTEL.describe()).isEqualTo("Airtel numbers (255 followed by 68, 69, 78)");
  }
}
