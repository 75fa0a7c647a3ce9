package dev.lipa.rails.daraja.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SourceAddressesTests {

  private final SourceAddresses daraja = SourceAddresses.of(List.of("196.201.214.0/24", "196.201.212.127",
      "2001:db8:10::/48"));

  @ParameterizedTest
  @ValueSource(strings = {"196.201.214.0", "196.201.214.255", "196.201.212.127", "2001:db8:10::1",
      "2001:0db8:0010:ffff::", "::ffff:196.201.214.9"})
  void allowsAddressesInTheBlocks(String address) {
    assertThat(daraja.allows(address)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"196.201.215.1", "196.201.212.128", "196.201.214", "0196.201.214.1", "3300371457",
      "196.201.214.1.", "daraja.safaricom.co.ke", "localhost", "2001:db8:11::1", "", "unknown", " 196.201.214.1"})
  void refusesEveryOtherAddressAndEveryOtherSpelling(String address) {
    assertThat(daraja.allows(address)).isFalse();
  }

  @Test
  void anEmptyListAllowsNothing() {
    assertThat(SourceAddresses.of(List.of()).allows("127.0.0.1")).isFalse();
    assertThat(SourceAddresses.of(null).isEmpty()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"daraja.example", "196.201.214.0/33", "196.201.214.0/x", "::/129"})
  void refusesAnEntryThatIsNotAnAddressOrABlock(String entry) {
    assertThatThrownBy(() -> SourceAddresses.of(List.of(entry))).isInstanceOf(IllegalArgumentException.class);
  }
}
