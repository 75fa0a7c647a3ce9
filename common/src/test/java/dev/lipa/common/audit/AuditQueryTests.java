package dev.lipa.common.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.web.ValidationException;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class AuditQueryTests {

  private static final ZoneId NAIROBI = ZoneId.of("Africa/Nairobi");

  @Test
  void readsDaysAsWholeDaysInThePlatformZone() {
    AuditQuery query = AuditQuery.of("2026-03-01", "2026-03-01", null, null, NAIROBI);

    assertThat(query.from()).isEqualTo(Instant.parse("2026-02-28T21:00:00Z"));
    assertThat(query.to()).isEqualTo(Instant.parse("2026-03-01T20:59:59.999Z"));
    assertThat(query.page()).isZero();
    assertThat(query.size()).isEqualTo(100);
  }

  @Test
  void readsLocalAndOffsetTimes() {
    AuditQuery query = AuditQuery.of("2026-03-01T09:30:00", "2026-03-01T09:30:00Z", "2", "50", NAIROBI);

    assertThat(query.from()).isEqualTo(Instant.parse("2026-03-01T06:30:00Z"));
    assertThat(query.to()).isEqualTo(Instant.parse("2026-03-01T09:30:00Z"));
    assertThat(query.page()).isEqualTo(2);
    assertThat(query.size()).isEqualTo(50);
  }

  @Test
  void namesEveryBadParameter() {
    assertThatThrownBy(() -> AuditQuery.of("yesterday", "2026-13-01", "-1", "501", NAIROBI))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.errors())
            .containsOnlyKeys("from", "to", "page", "size"));
    assertThatThrownBy(() -> AuditQuery.of("2026-03-02", "2026-03-01", null, "0", NAIROBI))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.errors()).containsOnlyKeys("to", "size"));
  }
}
