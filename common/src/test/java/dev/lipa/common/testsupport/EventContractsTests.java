package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.EventContracts.EventKind;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The checks every produced event goes through: what docs/asyncapi.yaml accepts, and what it must refuse. */
class EventContractsTests {

  private static final EventContracts CONTRACTS = EventContracts.document();

  private static final String STK_ACCEPTED = """
      {"eventId":"5b1f7a4e-2f7c-4c4b-9a37-7d5b2f0c9e11","type":"stk.accepted","version":1,
       "occurredAt":"2026-03-01T09:00:03.120Z","organisationId":"0b8c5a55-0b0b-4f0e-8f5e-1c2d3e4f5a6b",
       "data":{"requestId":"9a2b7c1d-4e5f-4a6b-8c7d-0e1f2a3b4c5d","referenceId":null,"phoneNumber":"254708374149",
               "amount":150,"currency":"KSH","status":"PENDING"}}""";

  private static final String STK_CALLBACK = """
      {"eventId":"6f1c5c8e-3a0b-4a47-9a59-0c3f2b8f1d11","type":"callback.requested","version":1,
       "occurredAt":"2026-03-01T09:00:06Z","organisationId":"org-1",
       "data":{"callbackId":"3d1f0e4b-7c55-4e1a-9b0e-5a9c2d7e8f10","requestId":"9a2b7c1d-4e5f-4a6b-8c7d-0e1f2a3b4c5d",
               "url":"https://merchant.example/cb","kind":"stk",
               "body":{"requestId":"9a2b7c1d-4e5f-4a6b-8c7d-0e1f2a3b4c5d","status":"SUCCESS","amount":150,
                       "phoneNumber":"254708374149"}}}""";

  @Test
  void everyTopicOfThePlatformIsAChannelWithItsEvents() {
    for (String topic : List.of(Topics.COLLECTIONS, Topics.PAYOUTS, Topics.CHECKOUT, Topics.ORGANISATIONS,
        Topics.CALLBACKS)) {
      assertThat(CONTRACTS.kindsOn(topic)).as("the events of %s", topic).isNotEmpty();
    }
    assertThat(CONTRACTS.kindsOn(Topics.COLLECTIONS)).contains(new EventKind("stk.succeeded", 1),
        new EventKind("bank.collection.received", 1));
  }

  @Test
  void everyExampleOfTheDocumentConformsToItsMessage() {
    int checked = 0;
    for (EventKind kind : CONTRACTS.kinds()) {
      for (String example : CONTRACTS.examples(kind)) {
        String topic = List.of(Topics.COLLECTIONS, Topics.PAYOUTS, Topics.CHECKOUT, Topics.ORGANISATIONS,
            Topics.CALLBACKS).stream().filter(t -> CONTRACTS.kindsOn(t).contains(kind)).findFirst().orElseThrow();
        assertThat(CONTRACTS.violations(topic, example)).as("the example of %s", kind).isEmpty();
        checked++;
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(5);
  }

  @Test
  void aConformingEventPasses() {
    assertThat(CONTRACTS.violations(Topics.COLLECTIONS, STK_ACCEPTED)).isEmpty();
    assertThat(CONTRACTS.violations(Topics.CALLBACKS, STK_CALLBACK)).isEmpty();
  }

  static Stream<Arguments> brokenEvents() {
    return Stream.of(
        Arguments.of("a type the document lacks", STK_ACCEPTED.replace("stk.accepted", "stk.queued"),
            "stk.queued v1 is not in"),
        Arguments.of("a version the document lacks", STK_ACCEPTED.replace("\"version\":1", "\"version\":2"),
            "stk.accepted v2 is not in"),
        Arguments.of("the amount as a string", STK_ACCEPTED.replace("\"amount\":150", "\"amount\":\"150\""),
            "amount"),
        Arguments.of("a negative amount", STK_ACCEPTED.replace("\"amount\":150", "\"amount\":-1"), "amount"),
        Arguments.of("a renamed field", STK_ACCEPTED.replace("\"phoneNumber\"", "\"phone\""), "phone"),
        Arguments.of("a field the document does not list",
            STK_ACCEPTED.replace("\"status\":\"PENDING\"", "\"status\":\"PENDING\",\"channel\":\"x\""), "channel"),
        Arguments.of("a status of another event", STK_ACCEPTED.replace("PENDING", "SUCCESS"), "status"),
        Arguments.of("a currency no rail takes", STK_ACCEPTED.replace("KSH", "KES"), "currency"),
        Arguments.of("an eventId that is not a UUID", STK_ACCEPTED.replace("5b1f7a4e-2f7c", "5b1f7a4e-2f7"),
            "eventId"),
        Arguments.of("occurredAt without a zone", STK_ACCEPTED.replace("09:00:03.120Z", "09:00:03.120"),
            "occurredAt"),
        Arguments.of("no organisationId", STK_ACCEPTED.replace("\"organisationId\"", "\"organisation\""),
            "organisation"),
        Arguments.of("not an envelope", "{\"type\":\"stk.accepted\"}", "not an event envelope"),
        Arguments.of("not JSON", "stk.accepted", "not JSON"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenEvents")
  void anEventThatBreaksItsContractFails(String what, String event, String named) {
    assertThat(CONTRACTS.violations(Topics.COLLECTIONS, event)).as(what).isNotEmpty()
        .anySatisfy(v -> assertThat(v).contains(named));
    assertThatThrownBy(() -> CONTRACTS.assertValid(Topics.COLLECTIONS, event)).isInstanceOf(AssertionError.class);
  }

  @Test
  void anEventOnATopicWhoseChannelDoesNotListItFails() {
    assertThat(CONTRACTS.violations(Topics.PAYOUTS, STK_ACCEPTED))
        .containsExactly("stk.accepted v1 is not a message of the channel payments.payouts.v1 in docs/asyncapi.yaml");
  }

  @Test
  void aCallbackBodyMustBeTheBodyOfItsKind() {
    // an STK body under kind till, and an STK body without its phone number
    assertThat(CONTRACTS.violations(Topics.CALLBACKS, STK_CALLBACK.replace("\"kind\":\"stk\"",
        "\"kind\":\"till\""))).isNotEmpty();
    assertThat(CONTRACTS.violations(Topics.CALLBACKS, STK_CALLBACK.replace("\"phoneNumber\":\"254708374149\"}}}",
        "\"phone\":\"254708374149\"}}}"))).isNotEmpty();
  }
}
