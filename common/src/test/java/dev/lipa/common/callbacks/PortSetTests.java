package dev.lipa.common.callbacks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PortSetTests {

  @Test
  void readsPortsAndRanges() {
    PortSet ports = PortSet.parse(" 8080-8082, 9092 ,27017");

    assertThat(ports.contains(8080)).isTrue();
    assertThat(ports.contains(8081)).isTrue();
    assertThat(ports.contains(8082)).isTrue();
    assertThat(ports.contains(8083)).isFalse();
    assertThat(ports.contains(9092)).isTrue();
    assertThat(ports.contains(27017)).isTrue();
    assertThat(ports.contains(-1)).isFalse();
    assertThat(ports.contains(70000)).isFalse();
  }

  @Test
  void blankIsNoPort() {
    assertThat(PortSet.parse(" ").contains(8080)).isFalse();
  }

  @Test
  void refusesWhatIsNotAPort() {
    assertThatThrownBy(() -> PortSet.parse("80a")).hasMessageContaining("80a");
    assertThatThrownBy(() -> PortSet.parse("0")).hasMessageContaining("not a port");
    assertThatThrownBy(() -> PortSet.parse("65536")).hasMessageContaining("not a port");
    assertThatThrownBy(() -> PortSet.parse("9000-8000")).hasMessageContaining("not a range");
  }
}
