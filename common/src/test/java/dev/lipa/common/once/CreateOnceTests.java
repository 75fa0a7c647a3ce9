package dev.lipa.common.once;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.idempotency.IdempotentEndpoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The "create once" step on its own: what it answers and when it undoes the effect that came before the insert. The
 * stores' side (which unique index refused an insert) is {@code UniqueKeysIntegrationTests}; the money side, against
 * the real ledger, is payouts' {@code PayoutCreatedOnceIntegrationTests}.
 */
class CreateOnceTests {

  private static final Origin ORIGIN = new Origin("fp-1", "org|scope|key-1");

  /** What the step did: effects run and undone, records minted. */
  private final List<String> journal = new ArrayList<>();
  private final AtomicInteger minted = new AtomicInteger();

  private String mint() {
    return "record-" + minted.incrementAndGet();
  }

  private CreateOnce.Effect reserve() {
    journal.add("reserve");
    return () -> journal.add("release");
  }

  /** An insert that answers the given outcomes in turn. */
  private static Function<String, Insert> inserts(Insert... outcomes) {
    Deque<Insert> left = new ArrayDeque<>(List.of(outcomes));
    return record -> left.pop();
  }

  private static Optional<Earlier<String>> earlier(String record, String fingerprint) {
    return Optional.of(new Earlier<>(record, fingerprint));
  }

  @Nested
  class ANewRequest {

    @Test
    void createsTheRecordAndKeepsTheEffect() {
      Creation<String> creation = CreateOnce.<String>of(ORIGIN)
          .byReference("ref-1", reference -> Optional.empty())
          .after(CreateOnceTests.this::reserve, record -> true)
          .create(CreateOnceTests.this::mint, inserts(Insert.WRITTEN));

      assertThat(creation).isEqualTo(new Creation.Created<>("record-1"));
      assertThat(journal).containsExactly("reserve");
    }

    @Test
    void mintsAgainWhenAnotherReplicaHoldsTheMintedIdAndRunsTheEffectOnce() {
      Creation<String> creation = CreateOnce.<String>of(ORIGIN)
          .after(CreateOnceTests.this::reserve, record -> true)
          .create(CreateOnceTests.this::mint, inserts(Insert.ID_TAKEN, Insert.ID_TAKEN, Insert.WRITTEN));

      assertThat(creation).isEqualTo(new Creation.Created<>("record-3"));
      assertThat(journal).containsExactly("reserve");
    }

    @Test
    void givesUpAfterThreeTakenIdsAndUndoesTheEffectOfTheRecordThatWasNeverWritten() {
      CreateOnce<String> step = CreateOnce.<String>of(ORIGIN)
          .after(CreateOnceTests.this::reserve, record -> false);

      assertThatThrownBy(() -> step.create(CreateOnceTests.this::mint,
          inserts(Insert.ID_TAKEN, Insert.ID_TAKEN, Insert.ID_TAKEN)))
          .isInstanceOf(IllegalStateException.class);
      assertThat(minted).hasValue(CreateOnce.ID_ATTEMPTS);
      assertThat(journal).containsExactly("reserve", "release");
    }
  }

  @Nested
  class ARepeatThatLosesTheInsert {

    @Test
    void isAnsweredWithTheEarlierRecordAndUndoesItsEffect() {
      Creation<String> creation = CreateOnce.<String>of(ORIGIN)
          .byReference("ref-1", reference -> earlier("first", "fp-1"))
          .after(CreateOnceTests.this::reserve, record -> true)
          .create(CreateOnceTests.this::mint, inserts(Insert.REFERENCE_TAKEN));

      assertThat(creation).isEqualTo(new Creation.Replayed<>("first"));
      assertThat(journal).containsExactly("reserve", "release");
    }

    @Test
    void withAnotherBodyIsAConflictNamingTheReferenceIdAndUndoesItsEffect() {
      Creation<String> creation = CreateOnce.<String>of(ORIGIN)
          .byReference("ref-1", reference -> earlier("first", "another body"))
          .after(CreateOnceTests.this::reserve, record -> true)
          .create(CreateOnceTests.this::mint, inserts(Insert.REFERENCE_TAKEN));

      assertThat(creation).isEqualTo(
          new Creation.Conflict<>("referenceId ref-1 was already used with a different request body"));
      assertThat(journal).containsExactly("reserve", "release");
    }

    @Test
    void ofTheIdempotencyKeyIsLookedUpByTheKeyAndAnsweredWithTheKeysMessage() {
      List<String> keysAskedFor = new ArrayList<>();
      Creation<String> creation = CreateOnce.<String>of(ORIGIN)
          .byReference("ref-1", reference -> earlier("by reference", "fp-1"))
          .byIdempotencyKey(key -> {
            keysAskedFor.add(key);
            return earlier("by key", "another body");
          })
          .create(CreateOnceTests.this::mint, inserts(Insert.KEY_TAKEN));

      assertThat(creation).isEqualTo(new Creation.Conflict<>(IdempotentEndpoint.MISMATCH_MESSAGE));
      assertThat(keysAskedFor).containsExactly(ORIGIN.idempotencyKey());
    }

    @Test
    void whoseEarlierRecordVanishedIsAFailureNotACreation() {
      CreateOnce<String> step = CreateOnce.<String>of(ORIGIN).byReference("ref-1", reference -> Optional.empty());

      assertThatThrownBy(() -> step.create(CreateOnceTests.this::mint, inserts(Insert.REFERENCE_TAKEN)))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("vanished");
    }
  }

  @Nested
  class LookingFirst {

    @Test
    void aRepeatIsAnsweredWithoutRunningTheEffectOrInserting() {
      Creation<String> creation = CreateOnce.<String>of(ORIGIN)
          .byReference("ref-1", reference -> earlier("first", "fp-1"))
          .lookingFirst()
          .after(CreateOnceTests.this::reserve, record -> true)
          .create(CreateOnceTests.this::mint, inserts());

      assertThat(creation).isEqualTo(new Creation.Replayed<>("first"));
      assertThat(journal).isEmpty();
      assertThat(minted).hasValue(0);
    }

    @Test
    void asksTheLookupsInTheOrderGivenAndSkipsThoseTheRequestHasNoValueFor() {
      List<String> asked = new ArrayList<>();
      CreateOnce.<String>of(new Origin("fp-1", null))
          .byReference("ref-1", reference -> {
            asked.add("reference " + reference);
            return Optional.empty();
          })
          .byIdempotencyKey(key -> {
            asked.add("key");
            return Optional.empty();
          })
          .byReference(null, reference -> {
            asked.add("no reference");
            return Optional.empty();
          })
          .lookingFirst()
          .create(CreateOnceTests.this::mint, inserts(Insert.WRITTEN));

      assertThat(asked).containsExactly("reference ref-1");
    }
  }

  @Nested
  class ARefusedEffect {

    @Test
    void stillAnswersARepeatAsTheFirstRequestWasAnswered() {
      Creation<String> creation = CreateOnce.<String>of(ORIGIN)
          .byIdempotencyKey(key -> Optional.empty())
          .byReference("ref-1", reference -> earlier("first", "fp-1"))
          .after(() -> {
            throw new IllegalArgumentException("no prompts left");
          }, record -> true)
          .create(CreateOnceTests.this::mint, inserts());

      assertThat(creation).isEqualTo(new Creation.Replayed<>("first"));
      assertThat(minted).hasValue(0);
    }

    @Test
    void propagatesTheRefusalWhenNoEarlierRecordCanBeReadEither() {
      CreateOnce<String> step = CreateOnce.<String>of(ORIGIN)
          .byReference("ref-1", reference -> {
            throw new IllegalStateException("store unreachable");
          })
          .after(() -> {
            throw new IllegalStateException("store unreachable while reserving");
          }, record -> true);

      assertThatThrownBy(() -> step.create(CreateOnceTests.this::mint, inserts()))
          .hasMessage("store unreachable while reserving")
          .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
              .satisfies(s -> assertThat(s).hasMessage("store unreachable")));
    }

    @Test
    void propagatesWhenTheRequestRepeatsNothing() {
      CreateOnce<String> step = CreateOnce.<String>of(ORIGIN)
          .byReference("ref-1", reference -> Optional.empty())
          .after(() -> {
            throw new IllegalArgumentException("insufficient balance");
          }, record -> true);

      assertThatThrownBy(() -> step.create(CreateOnceTests.this::mint, inserts()))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("insufficient balance");
      assertThat(minted).hasValue(0);
    }
  }

  @Nested
  class AFailedInsert {

    private Insert failing(String record) {
      throw new IllegalStateException("timed out");
    }

    @Test
    void keepsTheEffectWhenTheRecordWasStoredAllTheSame() {
      CreateOnce<String> step = CreateOnce.<String>of(ORIGIN).after(CreateOnceTests.this::reserve, record -> true);

      assertThatThrownBy(() -> step.create(CreateOnceTests.this::mint, this::failing)).hasMessage("timed out");
      assertThat(journal).containsExactly("reserve");
    }

    @Test
    void undoesTheEffectOnceTheRecordIsKnownToBeAbsent() {
      List<String> checked = new ArrayList<>();
      CreateOnce<String> step = CreateOnce.<String>of(ORIGIN).after(CreateOnceTests.this::reserve, record -> {
        checked.add(record);
        return false;
      });

      assertThatThrownBy(() -> step.create(CreateOnceTests.this::mint, this::failing)).hasMessage("timed out");
      assertThat(checked).containsExactly("record-1");
      assertThat(journal).containsExactly("reserve", "release");
    }

    @Test
    void keepsTheEffectWhenWhetherTheRecordIsStoredCannotBeRead() {
      CreateOnce<String> step = CreateOnce.<String>of(ORIGIN).after(CreateOnceTests.this::reserve, record -> {
        throw new IllegalStateException("store unreachable");
      });

      assertThatThrownBy(() -> step.create(CreateOnceTests.this::mint, this::failing))
          .hasMessage("timed out")
          .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
              .satisfies(s -> assertThat(s).hasMessage("store unreachable")));
      assertThat(journal).containsExactly("reserve");
    }
  }
}
