package dev.lipa.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's compaction: chunks that keep one live page among dead ones (here: each commit adds a page of new,
 * never-changed entries beside an entry rewritten every time, as payments are written and then left alone) are
 * rewritten, so their space can be used again, a bounded amount at a time.
 */
class HousekeepingTests {

  @TempDir
  Path directory;

  @Test
  void rewritesTheLivePagesOfSparseChunksSoTheChunksDie() {
    try (MVStore compacted = sparselyFilled(directory.resolve("compacted.mv"));
        MVStore left = sparselyFilled(directory.resolve("left.mv"))) {
      int fillBefore = compacted.getFileStore().getChunksFillRate();
      int chunksBefore = chunks(compacted);
      Housekeeping housekeeping = new Housekeeping(80, 64 * 1024);

      for (int round = 0; round < 30; round++) { // the traffic goes on; one store compacts in each round
        for (MVStore store : List.of(compacted, left)) {
          store.<String, String>openMap("payments").put("hot", "balance " + round);
          if (store == compacted) {
            housekeeping.compact(store);
          }
          store.commit();
        }
      }

      assertThat(housekeeping.runs()).isPositive();
      assertThat(compacted.getFileStore().getChunksFillRate()).isGreaterThan(fillBefore + 20);
      assertThat(chunks(compacted)).isLessThan(chunksBefore / 4);
      assertThat(chunks(left)).isGreaterThan(chunksBefore * 9 / 10); // without it, every sparse chunk stays
      MVMap<String, String> payments = compacted.openMap("payments");
      assertThat(payments.sizeAsLong()).isEqualTo(300 * 40 + 1);
      assertThat(payments.get("p-123-17")).isEqualTo("settled");
    }
  }

  @Test
  void aRoundAfterNothingWasWrittenRewritesNothingHoweverSparseTheFile() {
    try (MVStore store = sparselyFilled(directory.resolve("idle.mv"))) {
      int chunksBefore = chunks(store);
      Housekeeping housekeeping = new Housekeeping(80, 16 << 20);

      for (int round = 0; round < 10; round++) {
        assertThat(housekeeping.round(store, 0)).isFalse();
        store.commit();
      }

      assertThat(housekeeping.runs()).isZero();
      assertThat(chunks(store)).isEqualTo(chunksBefore);
      assertThat(store.getFileStore().getChunksFillRate()).isLessThan(80); // sparse: a fixed limit would rewrite it
      Housekeeping unpaced = new Housekeeping(80, 16 << 20, 0);
      assertThat(unpaced.round(store, 0)).isTrue();
    }
  }

  @Test
  void aRoundRewritesOnlyWhatTheBytesWrittenSinceTheRoundBeforePayFor() {
    try (MVStore store = sparselyFilled(directory.resolve("paid.mv"))) {
      int chunksBefore = chunks(store);
      Housekeeping housekeeping = new Housekeeping(80, 16 << 20);

      // a few bytes written pay for a few bytes of rewriting: no chunk's live pages fit in that
      assertThat(housekeeping.round(store, 4)).isFalse();
      store.commit();
      assertThat(chunks(store)).isEqualTo(chunksBefore);

      // 16 KB written pay for 64 KB, the limit under which the first test compacts
      for (int round = 0; round < 30; round++) {
        store.<String, String>openMap("payments").put("hot", "balance " + round);
        housekeeping.round(store, 16 * 1024);
        store.commit();
      }
      assertThat(housekeeping.runs()).isPositive();
      assertThat(chunks(store)).isLessThan(chunksBefore / 4);
    }
  }

  @Test
  void leavesChunksThatAreFullEnoughAlone() {
    try (MVStore store = new MVStore.Builder().fileName(directory.resolve("dense.mv").toString())
        .autoCommitDisabled().autoCommitBufferSize(0).open()) {
      store.setRetentionTime(0);
      MVMap<String, String> payments = store.openMap("payments");
      for (int n = 0; n < 10_000; n++) {
        payments.put("p-" + n, "settled");
      }
      store.commit(); // one commit: every chunk is full of live pages
      Housekeeping housekeeping = new Housekeeping(80, 64 * 1024);

      assertThat(housekeeping.compact(store)).isFalse();
      assertThat(housekeeping.runs()).isZero();
    }
  }

  private static int chunks(MVStore store) {
    Map<String, String> info = new HashMap<>();
    store.populateInfo(info::put);
    return Integer.parseInt(info.get("info.CHUNK_COUNT"));
  }

  /** 300 commits, each adding 40 entries that stay and rewriting one that changes every time. */
  private static MVStore sparselyFilled(Path file) {
    MVStore store = new MVStore.Builder().fileName(file.toString()).autoCommitDisabled().autoCommitBufferSize(0)
        .open();
    store.setRetentionTime(0);
    MVMap<String, String> payments = store.openMap("payments");
    for (int commit = 0; commit < 300; commit++) {
      for (int n = 0; n < 40; n++) {
        payments.put("p-" + commit + "-" + n, "settled");
      }
      payments.put("hot", "balance " + commit);
      store.commit();
    }
    return store;
  }
}
