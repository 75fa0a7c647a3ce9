package dev.lipa.rails.daraja.callback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.rails.daraja.DocExamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whatever is posted to a callback URL gives a typed rejection, never an exception and never a half-read record. */
class UntrustedCallbacksTests {

  private static final String SUCCESS = DocExamples.read("stk-callback-success");
  private static final String RESULT = DocExamples.read("b2c-result-success");

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "null", "[]", "42", "\"text\"", "{", "{}", "{\"Body\":{}}",
      "{\"Body\":{\"stkCallback\":[]}}", "{\"Body\":{\"stkCallback\":{}}}", "<xml/>"})
  void bodiesThatAreNotAnStkCallbackAreRejected(String body) {
    assertThat(DarajaCallbacks.stk(body)).isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.result(body)).isInstanceOf(Parsed.Rejected.class);
  }

  @Test
  void aNullBodyIsRejected() {
    assertThat(DarajaCallbacks.stk(null)).isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.result(null)).isInstanceOf(Parsed.Rejected.class);
  }

  @Test
  void aSuccessWithoutReceiptAmountOrPhoneIsRejected() {
    assertThat(DarajaCallbacks.stk(SUCCESS.replace("\"MpesaReceiptNumber\"", "\"Receipt\"")))
        .isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.stk(SUCCESS.replace("\"Value\": 1.00", "\"Value\": -1.00")))
        .isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.stk(SUCCESS.replace("\"Value\": 254708374149", "\"Value\": \"0708 374149\"")))
        .isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.stk(SUCCESS.replace("\"CallbackMetadata\"", "\"Metadata\"")))
        .isInstanceOf(Parsed.Rejected.class);
  }

  @Test
  void aRepeatedKeyOrARepeatedItemIsRejected() {
    // a second ResultCode could make two readers see two results
    assertThat(DarajaCallbacks.stk(SUCCESS.replace("\"ResultCode\": 0,", "\"ResultCode\": 0, \"ResultCode\": 1,")))
        .isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.stk(SUCCESS.replace("\"Name\": \"TransactionDate\"", "\"Name\": \"Amount\"")))
        .isInstanceOf(Parsed.Rejected.class);
  }

  @Test
  void idsOutsideDarajasAlphabetAreRejectedBeforeAnyoneLogsOrLooksThemUp() {
    for (String id : new String[] {"../../etc", "<script>", "ws_CO_1 OR 1=1", "a\\u0000b", ""}) {
      String body = SUCCESS.replace("ws_CO_191220191020363925", id);
      assertThat(DarajaCallbacks.stk(body)).as(id).isInstanceOf(Parsed.Rejected.class);
    }
    assertThat(DarajaCallbacks.result(RESULT.replace("AG_20240706_2010364430d9bbdaf872", "{$ne: 1}")))
        .isInstanceOf(Parsed.Rejected.class);
  }

  @Test
  void oddTypesAreRejected() {
    assertThat(DarajaCallbacks.stk(SUCCESS.replace("\"ResultCode\": 0", "\"ResultCode\": {\"a\": 1}")))
        .isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.stk(SUCCESS.replace("\"ResultCode\": 0", "\"ResultCode\": 1.5")))
        .isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.result(RESULT.replace("\"ResultType\": 0", "\"ResultType\": \"x\"")))
        .isInstanceOf(Parsed.Rejected.class);
    assertThat(DarajaCallbacks.result(RESULT.replace("\"Value\": 10", "\"Value\": [10]")))
        .isInstanceOf(Parsed.Rejected.class);
  }

  @Test
  void hugeAndDeeplyNestedBodiesAreRejected() {
    String huge = SUCCESS.replace("\"ResultDesc\": \"The service request is processed successfully.\"",
        "\"ResultDesc\": \"" + "x".repeat(70_000) + "\"");
    assertThat(DarajaCallbacks.stk(huge)).isInstanceOf(Parsed.Rejected.class);
    String deep = "{\"Body\":" + "{\"a\":".repeat(100) + "1" + "}".repeat(100) + "}";
    assertThat(DarajaCallbacks.stk(deep)).isInstanceOf(Parsed.Rejected.class);
  }

  @Test
  void aRejectionQuotesNothingFromTheBody() {
    Parsed<StkCallback> parsed = DarajaCallbacks.stk(SUCCESS.replace("ws_CO_191220191020363925", "<script>"));
    assertThat(((Parsed.Rejected<StkCallback>) parsed).reason()).doesNotContain("<script>");
  }
}
