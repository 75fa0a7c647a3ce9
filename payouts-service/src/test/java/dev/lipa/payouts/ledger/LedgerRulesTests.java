package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.ledger.LedgerRules.Condition;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The ledger's rules: what each movement kind needs from its account, and why a guarded update matched nothing. */
class LedgerRulesTests {

  private static final String REQUEST = "7b0d3c52-5f0e-4d39-8a43-0b6c8f6a9e11";

  private static Movement movement(MovementKind kind, String amount) {
    return new Movement(OrganisationId.of("org-1"), Currency.KSH, kind, REQUEST, new BigDecimal(amount));
  }

  private static AccountSnapshot account(String available, Set<String> applied, Set<String> held) {
    return new AccountSnapshot(new BigDecimal(available), applied, held);
  }

  @Nested
  class Conditions {

    @Test
    void aReservationNeedsItsIdUnappliedAvailableCoveringItAndNoHoldOfItsRequest() {
      Movement reserve = movement(MovementKind.RESERVE, "100");

      assertThat(LedgerRules.conditions(reserve)).containsExactly(
          new Condition.NotApplied(List.of(reserve.id())),
          new Condition.AvailableCovers(new BigDecimal("100")),
          new Condition.NoHold(REQUEST));
    }

    @Test
    void aSettlementAndAReleaseNeedTheirReservationsHold() {
      for (MovementKind kind : List.of(MovementKind.SETTLE, MovementKind.RELEASE)) {
        Movement movement = movement(kind, "100");
        assertThat(LedgerRules.conditions(movement)).as(kind.name()).containsExactly(
            new Condition.NotApplied(List.of(movement.id())), new Condition.HoldExists(REQUEST));
      }
    }

    @Test
    void aTransferOutNeedsAvailableToCoverIt() {
      Movement out = movement(MovementKind.TRANSFER_OUT, "5");

      assertThat(LedgerRules.conditions(out)).containsExactly(
          new Condition.NotApplied(List.of(out.id())), new Condition.AvailableCovers(new BigDecimal("5")));
    }

    @Test
    void movementsThatOnlyAddNeedNothingButTheirIdUnapplied() {
      for (MovementKind kind : List.of(MovementKind.CREDIT, MovementKind.TOP_UP, MovementKind.TRANSFER_IN,
          MovementKind.OPENING)) {
        Movement movement = movement(kind, "1");
        assertThat(LedgerRules.conditions(movement)).as(kind.name())
            .containsExactly(new Condition.NotApplied(List.of(movement.id())));
      }
    }

    @Test
    void onlyMovementsThatOnlyAddToAvailableAreAppliedAsAGroup() {
      assertThat(List.of(MovementKind.values())).filteredOn(LedgerRules::batchable)
          .containsExactlyInAnyOrder(MovementKind.OPENING, MovementKind.TOP_UP, MovementKind.CREDIT,
              MovementKind.TRANSFER_IN);
    }
  }

  @Nested
  class Explain {

    @Test
    void aMovementWhoseIdTheAccountKnowsIsADuplicate() {
      Movement credit = movement(MovementKind.CREDIT, "10");

      assertThat(LedgerRules.explain(credit, account("0", Set.of(credit.id()), Set.of())))
          .isEqualTo(MovementOutcome.DUPLICATE);
    }

    @Test
    void aReservationWhoseHoldExistsIsADuplicateEvenWhenItsIdLeftTheRecentWindow() {
      assertThat(LedgerRules.explain(movement(MovementKind.RESERVE, "10"), account("1000", Set.of(), Set.of(REQUEST))))
          .isEqualTo(MovementOutcome.DUPLICATE);
    }

    @Test
    void aReservationOrTransferOutThatAvailableDoesNotCoverIsRefused() {
      assertThat(LedgerRules.explain(movement(MovementKind.RESERVE, "100.01"), account("100", Set.of(), Set.of())))
          .isEqualTo(MovementOutcome.REFUSED);
      assertThat(LedgerRules.explain(movement(MovementKind.TRANSFER_OUT, "100.01"),
          account("100", Set.of(), Set.of()))).isEqualTo(MovementOutcome.REFUSED);
    }

    @Test
    void aSettlementOrReleaseWithoutItsHoldIsRefused() {
      assertThat(LedgerRules.explain(movement(MovementKind.SETTLE, "10"), account("0", Set.of(), Set.of("other"))))
          .isEqualTo(MovementOutcome.REFUSED);
      assertThat(LedgerRules.explain(movement(MovementKind.RELEASE, "10"), account("0", Set.of(), Set.of())))
          .isEqualTo(MovementOutcome.REFUSED);
    }

    /** Never a refusal by elimination: a credit would then be dropped although nothing refused it. */
    @Test
    void aMissTheAccountDoesNotExplainIsAChangeNotARefusal() {
      assertThat(LedgerRules.explain(movement(MovementKind.CREDIT, "10"), account("0", Set.of(), Set.of())))
          .isEqualTo(MovementOutcome.CHANGED);
      assertThat(LedgerRules.explain(movement(MovementKind.RESERVE, "100"), account("100", Set.of(), Set.of())))
          .isEqualTo(MovementOutcome.CHANGED);
      assertThat(LedgerRules.explain(movement(MovementKind.SETTLE, "10"), account("0", Set.of(), Set.of(REQUEST))))
          .isEqualTo(MovementOutcome.CHANGED);
    }

    @Test
    void aGroupIsADuplicateWhenAnyOfItsIdsIsKnownAndAChangeOtherwise() {
      AccountSnapshot account = account("0", Set.of("b"), Set.of());

      assertThat(LedgerRules.explainGroup(List.of("a", "b", "c"), account)).isEqualTo(MovementOutcome.DUPLICATE);
      assertThat(LedgerRules.explainGroup(List.of("a", "c"), account)).isEqualTo(MovementOutcome.CHANGED);
    }
  }

  @Test
  void movementsThatCanComeBackLateAreCheckedInTheJournalFirst() {
    assertThat(List.of(MovementKind.values())).filteredOn(LedgerRules::mayRepeatLate)
        .containsExactlyInAnyOrder(MovementKind.CREDIT, MovementKind.TOP_UP, MovementKind.TRANSFER_IN,
            MovementKind.TRANSFER_OUT);
  }
}
