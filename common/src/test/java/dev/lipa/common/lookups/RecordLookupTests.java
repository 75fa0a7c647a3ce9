package dev.lipa.common.lookups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.ids.RequestId;
import dev.lipa.common.web.ValidationException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.mock.web.MockHttpServletRequest;

class RecordLookupTests {

  private static final String UUID_TEXT = "0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10";

  private static MockHttpServletRequest request(String... nameValues) {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/sandbox/v1/stk/single");
    for (int i = 0; i < nameValues.length; i += 2) {
      request.addParameter(nameValues[i], nameValues[i + 1]);
    }
    return request;
  }

  @Test
  void readsARequestId() {
    assertThat(RecordLookup.read(request("requestId", " " + UUID_TEXT.toUpperCase() + " ")))
        .isEqualTo(new RecordLookup.ByRequestId(RequestId.parse(UUID_TEXT)));
  }

  @Test
  void readsAReferenceIdStrippedAsTheCreateEndpointsStoreIt() {
    assertThat(RecordLookup.read(request("referenceId", "  INV-42/a b  ")))
        .isEqualTo(new RecordLookup.ByReference("INV-42/a b"));
  }

  @Test
  void takesABlankOneAsAbsent() {
    assertThat(RecordLookup.read(request("requestId", UUID_TEXT, "referenceId", " ")))
        .isInstanceOf(RecordLookup.ByRequestId.class);
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of(named("neither", new String[] {}), "requestId"),
        Arguments.of(named("both blank", new String[] {"requestId", "", "referenceId", " "}), "requestId"),
        Arguments.of(named("both", new String[] {"requestId", UUID_TEXT, "referenceId", "r1"}), "referenceId"),
        Arguments.of(named("a word", new String[] {"requestId", "all"}), "requestId"),
        Arguments.of(named("a short UUID form", new String[] {"requestId", "1-1-1-1-1"}), "requestId"),
        Arguments.of(named("a UUID and more", new String[] {"requestId", UUID_TEXT + "0"}), "requestId"),
        Arguments.of(named("a UUID in braces", new String[] {"requestId", "{" + UUID_TEXT + "}"}), "requestId"),
        Arguments.of(named("a huge requestId", new String[] {"requestId", "a".repeat(100_000)}), "requestId"),
        Arguments.of(named("a referenceId over 64", new String[] {"referenceId", "r".repeat(65)}), "referenceId"),
        Arguments.of(named("requestId twice", new String[] {"requestId", UUID_TEXT, "requestId", UUID_TEXT}),
            "requestId"),
        Arguments.of(named("referenceId twice", new String[] {"referenceId", "a", "referenceId", "b"}),
            "referenceId"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void refusesWithA400NamingTheParameter(String[] parameters, String named) {
    assertThatThrownBy(() -> RecordLookup.read(request(parameters)))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.errors()).containsKey(named));
  }

  @Test
  void describesWhatWasAskedForInA404() {
    assertThat(new RecordLookup.ByReference("INV-1").describe()).isEqualTo("referenceId INV-1");
    assertThat(new RecordLookup.ByRequestId(RequestId.parse(UUID_TEXT)).describe())
        .isEqualTo("requestId " + UUID_TEXT);
  }
}
