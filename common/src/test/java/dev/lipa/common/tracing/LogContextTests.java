package dev.lipa.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** The organisation and requestId in the MDC for exactly as long as the work that knows them. */
class LogContextTests {

  @AfterEach
  void clear() {
    MDC.clear();
  }

  @Test
  void putsThePaymentInTheMdcAndRemovesItAfter() {
    try (LogContext context = LogContext.payment("org-1", "req-1")) {
      assertThat(MDC.get(LogContext.ORGANISATION)).isEqualTo("org-1");
      assertThat(MDC.get(LogContext.REQUEST_ID)).isEqualTo("req-1");
    }

    assertThat(MDC.get(LogContext.ORGANISATION)).isNull();
    assertThat(MDC.get(LogContext.REQUEST_ID)).isNull();
  }

  @Test
  void aNestedContextPutsBackWhatTheOuterOneHeld() {
    try (LogContext outer = LogContext.organisation("org-1")) {
      try (LogContext inner = LogContext.payment("org-2", "req-2")) {
        assertThat(MDC.get(LogContext.ORGANISATION)).isEqualTo("org-2");
      }
      assertThat(MDC.get(LogContext.ORGANISATION)).isEqualTo("org-1");
      assertThat(MDC.get(LogContext.REQUEST_ID)).isNull();
    }
  }

  @Test
  void anUnknownValueLeavesTheMdcAsItIs() {
    try (LogContext context = LogContext.payment(null, null)) {
      assertThat(MDC.getCopyOfContextMap()).isNullOrEmpty();
    }
  }
}
