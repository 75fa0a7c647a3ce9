package dev.lipa.collections.stk;

import static dev.lipa.collections.stk.StkPushFixtures.ORGANISATION;
import static dev.lipa.collections.stk.StkPushFixtures.aPendingStkPush;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class AcceptedPushesTests {

  private final AcceptedPushes accepted = new AcceptedPushes();

  @Test
  void handsBackThePushAsStoredWithNoEventsAndOnlyOnce() {
    StkPush push = aPendingStkPush();
    accepted.keep(push);

    StkPush taken = accepted.take(ORGANISATION, push.requestId()).orElseThrow();

    // what a read of the stored push gives: PENDING, its details, nothing recorded to write again
    assertThat(taken).isNotSameAs(push);
    assertThat(taken.details()).isEqualTo(push.details());
    assertThat(taken.status()).isEqualTo(StkStatus.PENDING);
    assertThat(taken.updatedAt()).isEqualTo(push.details().createdAt());
    assertThat(taken.railReference()).isNull();
    assertThat(taken.result()).isNull();
    assertThat(taken.events()).isEmpty();
    // the second outcome of the push (the overdue sweep's) reads the store instead
    assertThat(accepted.take(ORGANISATION, push.requestId())).isEmpty();
  }

  @Test
  void anotherOrganisationsOutcomeGetsNothingAndLeavesThePush() {
    StkPush push = aPendingStkPush();
    accepted.keep(push);

    assertThat(accepted.take(OrganisationId.of("org-2"), push.requestId())).isEmpty();
    assertThat(accepted.take(ORGANISATION, push.requestId())).isPresent();
  }

  @Test
  void aPushItNeverKeptIsNotThere() {
    assertThat(accepted.take(ORGANISATION, RequestId.random())).isEmpty();
  }

  @Test
  void keepsNoMoreThanItsBound() {
    List<StkPush> pushes = new ArrayList<>();
    for (int i = 0; i < AcceptedPushes.MAX_PUSHES * 2; i++) {
      StkPush push = aPendingStkPush();
      pushes.add(push);
      accepted.keep(push);
    }
    long kept = pushes.stream().filter(p -> accepted.take(ORGANISATION, p.requestId()).isPresent()).count();
    assertThat(kept).isPositive().isLessThanOrEqualTo(AcceptedPushes.MAX_PUSHES);
  }

  @Test
  void twoOutcomesAtOnceNeverBothGetThePush() throws Exception {
    try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
      for (int round = 0; round < 500; round++) {
        StkPush push = aPendingStkPush();
        accepted.keep(push);
        Callable<Optional<StkPush>> take = () -> accepted.take(ORGANISATION, push.requestId());
        Future<Optional<StkPush>> first = threads.submit(take);
        Future<Optional<StkPush>> second = threads.submit(take);
        assertThat(first.get().isPresent() ^ second.get().isPresent()).as("round %d", round).isTrue();
      }
    }
  }
}
