package dev.lipa.rails.daraja.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.rails.daraja.DocExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ResultCodesTests {

  @Test
  void everyStkCodeTheIssueNamesHasAReason() {
    for (String code : new String[] {"1", "17", "1001", "1019", "1025", "1032", "1037", "2001",
        "9999"}) {
      ResultMeaning m = ResultCodes.stk(code);
      assertThat(m.outcome()).as(code).isEqualTo(ResultMeaning.Outcome.FAILED);
      assertThat(m.reason()).as(code).isNotEqualTo(FailureReason.UNRECOGNISED);
    }
    assertThat(ResultCodes.stk("0").outcome()).isEqualTo(ResultMeaning.Outcome.SUCCEEDED);
  }

  @Test
  void everyPayoutCodeTheIssueNamesHasAReason() {
    for (String code : new String[] {"1", "2", "4", "8", "11", "2001", "2006", "2040", "8006"}) {
      ResultMeaning m = ResultCodes.payout(code);
      assertThat(m.outcome()).as(code).isEqualTo(ResultMeaning.Outcome.FAILED);
      assertThat(m.reason()).as(code).isNotEqualTo(FailureReason.UNRECOGNISED);
    }
  }

  @Test
  void thePlatformsExistingReasonsKeepTheirCodes() {
    assertThat(ResultCodes.stk("1").reason()).isEqualTo(FailureReason.INSUFFICIENT_FUNDS);
    assertThat(ResultCodes.stk("1032").reason()).isEqualTo(FailureReason.CANCELLED);
    assertThat(ResultCodes.stk("1037").reason()).isEqualTo(FailureReason.UNREACHABLE);
    assertThat(ResultCodes.stk("2001").reason()).isEqualTo(FailureReason.WRONG_PIN);
  }

  @Test
  void theSameCodeMeansDifferentThingsPerFamily() {
    assertThat(ResultCodes.stk("2001").reason()).isEqualTo(FailureReason.WRONG_PIN);
    assertThat(ResultCodes.stk("2001").retryWorthIt()).isTrue();
    assertThat(ResultCodes.payout("2001").reason()).isEqualTo(FailureReason.INITIATOR_INVALID);
    assertThat(ResultCodes.payout("2001").retryWorthIt()).isFalse();
  }

  @Test
  void aDuplicateDetectedIsNotAVerdictOnThePayment() {
    assertThat(ResultCodes.payout("15").outcome()).isEqualTo(ResultMeaning.Outcome.UNSETTLED);
  }

  @Test
  void stkQuerysStillUnderProcessingIsNotAVerdictEither() {
    assertThat(ResultCodes.stk("4999").outcome()).isEqualTo(ResultMeaning.Outcome.UNSETTLED);
    assertThat(ResultCodes.stk("4999").reason()).isNull();
  }

  @Test
  void aSubscriberLockedByAnotherTransactionIsWorthAnotherPushUnlikeATooLongPrompt() {
    assertThat(ResultCodes.stk("1001").reason()).isEqualTo(FailureReason.SUBSCRIBER_BUSY);
    assertThat(ResultCodes.stk("1001").retryWorthIt()).isTrue();
    assertThat(ResultCodes.stk("9999").retryWorthIt()).isTrue();
    assertThat(ResultCodes.stk("1025").retryWorthIt()).isFalse();
  }

  @Test
  void anUndocumentedCodeIsAFailureNobodyRetriesAndLeadingZerosAreZero() {
    ResultMeaning m = ResultCodes.stk("4242");
    assertThat(m.reason()).isEqualTo(FailureReason.UNRECOGNISED);
    assertThat(m.retryWorthIt()).isFalse();
    assertThat(ResultCodes.payout("00000000").outcome()).isEqualTo(ResultMeaning.Outcome.SUCCEEDED);
    assertThat(ResultCodes.payout(null).reason()).isEqualTo(FailureReason.UNRECOGNISED);
  }

  /** docs/going-live.md's table is this table: every row of the one is a row of the other. */
  @Test
  void theGoingLiveGuidesTableIsTheCodesTable() throws IOException {
    String guide = Files.readString(DocExamples.repositoryFile("docs/going-live.md"));
    Pattern row = Pattern.compile("^\\| (STK|PAYOUT|REVERSAL) \\| `([^`]+)` \\| ([A-Z_]+) \\| (yes|no) \\|",
        Pattern.MULTILINE);
    Matcher m = row.matcher(guide);
    Set<String> documented = new HashSet<>();
    while (m.find()) {
      ResultCodes.Family family = ResultCodes.Family.valueOf(m.group(1));
      ResultMeaning meaning = ResultCodes.ordered(family).stream().filter(x -> x.code().equals(m.group(2)))
          .findFirst().orElseThrow(() -> new AssertionError("not in ResultCodes: " + m.group()));
      String shown = meaning.reason() == null ? meaning.outcome().name() : meaning.reason().name();
      assertThat(m.group(3)).as(m.group()).isEqualTo(shown);
      assertThat(m.group(4)).as(m.group()).isEqualTo(meaning.retryWorthIt() ? "yes" : "no");
      documented.add(family + " " + meaning.code());
    }
    for (ResultCodes.Family family : ResultCodes.Family.values()) {
      for (ResultMeaning meaning : ResultCodes.ordered(family)) {
        assertThat(documented).as("docs/going-live.md lists " + family + " " + meaning.code())
            .contains(family + " " + meaning.code());
      }
    }
  }
}
