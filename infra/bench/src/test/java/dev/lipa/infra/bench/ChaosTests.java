package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The options, the fault plan and the windows of {@code ./platform chaos}. */
class ChaosTests {

  private static final List<String> CLUSTER = List.of("auth-service", "auth-service-2", "callback-dispatcher",
      "callback-dispatcher-2", "checkout-service", "checkout-service-2", "collections-service",
      "collections-service-2", "gateway", "gateway-2", "kafka", "kafka-2", "kafka-3", "payouts-service",
      "payouts-service-2", "store");
  private static final String[] REQUIRED = {"--var", "/tmp/v", "--mongo", "mongodb://127.0.0.1:1", "--platform",
      "/opt/lipa/platform", "--gateways", "http://127.0.0.1:8080, http://127.0.0.1:8090"};

  private static ChaosOptions options(String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of(REQUIRED));
    args.addAll(List.of(more));
    return ChaosOptions.parse(args.toArray(String[]::new));
  }

  @Test
  void readsTheGatewaysAndSecondsAndRefusesRatesAndTimesOutOfBounds() throws Exception {
    ChaosOptions options = options("--rate", "45", "--pause-seconds", "35");

    assertThat(options.gateways()).containsExactly("http://127.0.0.1:8080", "http://127.0.0.1:8090");
    assertThat(options.rate()).isEqualTo(45);
    assertThat(options.pauseMillis()).isEqualTo(35_000);
    for (String[] bad : List.of(new String[] {"--rate", "0"}, new String[] {"--rate", "1e9"},
        new String[] {"--rate", "NaN"}, new String[] {"--kill-seconds", "-1"}, new String[] {"--timeout-seconds",
            "ten"}, new String[] {"--connections", "100000"}, new String[] {"--bogus", "1"})) {
      assertThatThrownBy(() -> options(bad)).as(String.join(" ", bad)).isInstanceOf(ChaosOptions.UsageException.class);
    }
    assertThatThrownBy(() -> ChaosOptions.parse(new String[] {"--rate", "10"}))
        .isInstanceOf(ChaosOptions.UsageException.class).hasMessageContaining("--gateways");
  }

  @Test
  void theSustainModeReadsItsRatesInOrderAndRefusesBadOnesAndHasNoFault() throws Exception {
    ChaosOptions options = options("--sustain", "20, 30,45.5", "--step-seconds", "90");

    assertThat(options.sustainRates()).containsExactly(20.0, 30.0, 45.5);
    assertThat(options.stepMillis()).isEqualTo(90_000);
    assertThat(options().sustainRates()).isEmpty();
    for (String[] bad : List.of(new String[] {"--sustain", ""}, new String[] {"--sustain", "10,,20"},
        new String[] {"--sustain", "10,NaN"}, new String[] {"--sustain", "0"}, new String[] {"--sustain", "1e9"},
        new String[] {"--sustain", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21"},
        new String[] {"--step-seconds", "5"}, new String[] {"--step-seconds", "1e12"})) {
      assertThatThrownBy(() -> options(bad)).as(String.join(" ", bad)).isInstanceOf(ChaosOptions.UsageException.class);
    }
  }

  @Test
  void theSustainedRateIsTheLastOfTheLeadingSustainedStepsAndAFallingBehindStepIsNotSustained() {
    ChaosSustain.Result calm20 = new ChaosSustain.Result(20, 1200, 1200, 80, 400, "", 0, 3.5);
    ChaosSustain.Result calm30 = new ChaosSustain.Result(30, 1800, 1800, 90, 700, "", 0, 6);
    ChaosSustain.Result slow40 = new ChaosSustain.Result(40, 2400, 2400, 300, 1200, "", 0, 9);
    ChaosSustain.Result behind40 = new ChaosSustain.Result(40, 2400, 2400, 90, 800, "", 12, 30);
    ChaosSustain.Result refused40 = new ChaosSustain.Result(40, 2400, 2399, 90, 800, "HTTP 503 1", 0, 5);

    assertThat(calm20.sustained()).isTrue();
    assertThat(slow40.sustained()).as("p99 over a second").isFalse();
    assertThat(behind40.sustained()).as("callbacks still missing after the catch-up").isFalse();
    assertThat(refused40.sustained()).as("one request refused").isFalse();
    assertThat(ChaosSustain.sustainedRate(List.of(calm20, calm30, slow40))).isEqualTo(30);
    assertThat(ChaosSustain.sustainedRate(List.of(slow40, calm20))).isZero();
    assertThat(ChaosSustain.sustainedRate(List.of())).isZero();
    assertThat(new ChaosSustain.Result(10, 0, 0, Double.NaN, Double.NaN, "", 0, 0).sustained()).isFalse();
  }

  @Test
  void theLongRunKillsEachBrokerAReplicaOfEveryServiceAGatewayAndTheDispatcherThenPausesAndRollsEverything()
      throws Exception {
    List<ChaosFault> faults = ChaosFault.plan(options(), CLUSTER);

    assertThat(faults).extracting(f -> f.name).containsExactly("kill broker kafka", "kill broker kafka-2",
        "kill broker kafka-3", "kill replica auth-service-2", "kill replica collections-service-2",
        "kill replica payouts-service-2", "kill replica checkout-service-2", "kill replica callback-dispatcher-2",
        "kill gateway gateway-2", "kill the callback dispatcher", "pause broker kafka-2",
        "pause replica collections-service", "pause the store", "kill every broker",
        "rolling restart of every service");
    assertThat(faults.get(9).components).containsExactly("callback-dispatcher", "callback-dispatcher-2");
    assertThat(faults.get(13).allBrokers()).isTrue();
    assertThat(faults.get(0).allBrokers()).isFalse();
    assertThat(faults.getLast().components).hasSize(10).noneMatch(c -> c.startsWith("gateway"))
        .noneMatch(c -> c.startsWith("kafka") || c.equals("store"));
    assertThat(faults.get(10).holdMillis).as("a pause outlasts a lease (30 s)").isGreaterThan(30_000);
  }

  @Test
  void theShortRunKeepsOneFaultOfEachKindOnTheComponentsThatRun() throws Exception {
    // in the order ./platform status lists them
    List<String> small = List.of("auth-service", "callback-dispatcher-2", "callback-dispatcher", "checkout-service",
        "collections-service", "collections-service-2", "gateway", "kafka", "kafka-2", "kafka-3", "payouts-service",
        "store");

    List<ChaosFault> faults = ChaosFault.plan(options("--short"), small);

    assertThat(faults).extracting(f -> f.kind).containsExactly(ChaosFault.Kind.KILL, ChaosFault.Kind.PAUSE,
        ChaosFault.Kind.ROLLING_RESTART);
    assertThat(faults.getFirst().name).isEqualTo("kill collections-service-2, callback-dispatcher-2");
    assertThat(faults.getFirst().components).as("the second replica of each replicated service; the first takes over")
        .containsExactly("collections-service-2", "callback-dispatcher-2");
    assertThat(faults.getFirst().allBrokers()).isFalse();
    assertThat(faults.get(1).components).containsExactly("kafka-3");
    assertThat(faults.getLast().components).containsExactly("collections-service", "collections-service-2");
    assertThat(ChaosFault.plan(options("--short"), List.of("auth-service", "callback-dispatcher", "collections-service",
        "gateway", "kafka", "payouts-service", "store"))).extracting(f -> f.name)
        .as("a single broker and one replica each: only what runs is killed, nothing is paused")
        .containsExactly("kill collections-service, callback-dispatcher", "rolling restart of collections-service");
    assertThat(ChaosFault.plan(options(), small)).extracting(f -> f.name)
        .as("what does not run is not planned").doesNotContain("kill replica auth-service-2", "kill gateway gateway-2");
  }

  @Test
  void onlyKeepsThePlannedFaultsNamingOneOfItsWordsAndRefusesAWordThatNamesNone() throws Exception {
    assertThat(ChaosFault.plan(options("--only", "Rolling, store"), CLUSTER)).extracting(f -> f.name)
        .containsExactly("pause the store", "rolling restart of every service");
    assertThat(ChaosFault.plan(options("--short", "--only", "kill"), CLUSTER)).extracting(f -> f.kind)
        .containsExactly(ChaosFault.Kind.KILL);
    assertThat(ChaosFault.plan(options("--only", "kafka-3"), CLUSTER)).extracting(f -> f.name)
        .containsExactly("kill broker kafka-3");

    assertThatThrownBy(() -> ChaosFault.plan(options("--only", "rolling,gateway-9"), CLUSTER))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gateway-9");
    for (String bad : List.of("", ",", "rolling,,store", "x".repeat(41), "a,".repeat(20) + "b")) {
      assertThatThrownBy(() -> options("--only", bad)).as(bad).isInstanceOf(ChaosOptions.UsageException.class);
    }
    assertThat(options().only()).isEmpty();
  }

  @Test
  void aWindowLastsUntilTheFirstCalmSecondAfterTheRepairAndAFailureOutsideEveryWindowIsFound() {
    long t0 = 1_000_000;
    ChaosFault fault = new ChaosFault("kill broker kafka-2", ChaosFault.Kind.KILL, List.of("kafka-2"), 5000);
    fault.injectedAtMillis = t0 + 10_000;
    fault.repairedAtMillis = t0 + 15_500;
    List<ChaosTimeline.Answer> answers = new ArrayList<>();
    for (long s = 0; s < 30; s++) {
      for (int i = 0; i < 10; i++) {
        long due = t0 + s * 1000 + i * 100;
        // slow from the fault until 17 s, one failure at 12 s and one at 25 s
        long micros = s >= 10 && s < 17 ? 3_000_000 : 20_000;
        String outcome = (s == 12 && i == 0) || (s == 25 && i == 5) ? "HTTP 503" : "201";
        answers.add(new ChaosTimeline.Answer(due, micros, outcome));
      }
    }

    List<ChaosTimeline.Window> windows = ChaosTimeline.windows(List.of(fault), answers, t0 + 30_000);

    ChaosTimeline.Window window = windows.getFirst();
    assertThat(window.recovered()).isTrue();
    assertThat(window.toMillis()).as("17 s: the first calm second after the repair at 15.5 s").isEqualTo(t0 + 17_000);
    assertThat(window.failed()).isEqualTo(1);
    assertThat(window.p99Millis()).isGreaterThanOrEqualTo(2900);
    List<ChaosTimeline.Answer> outside = answers.stream().filter(a -> !a.accepted())
        .filter(a -> !ChaosTimeline.inside(a, windows)).toList();
    assertThat(outside).singleElement().extracting(ChaosTimeline.Answer::dueMillis).isEqualTo(t0 + 25_500);
    // a request due just before the fault but still in flight when it struck belongs to its window
    assertThat(ChaosTimeline.inside(new ChaosTimeline.Answer(t0 + 9_900, 500_000, "timeout"), windows)).isTrue();
    assertThat(ChaosTimeline.inside(new ChaosTimeline.Answer(t0 + 9_000, 500_000, "timeout"), windows)).isFalse();
  }

  @Test
  void aFaultThatNeverCalmsDownHasAWindowToTheEndOfTheLoad() {
    ChaosFault fault = new ChaosFault("pause the store", ChaosFault.Kind.PAUSE, List.of("store"), 40_000);
    fault.injectedAtMillis = 5_000;
    fault.repairedAtMillis = 6_000;
    List<ChaosTimeline.Answer> answers = List.of(new ChaosTimeline.Answer(7_000, 10, "HTTP 503"),
        new ChaosTimeline.Answer(9_000, 2_000_000, "201"));

    ChaosTimeline.Window window = ChaosTimeline.windows(List.of(fault), answers, 10_000).getFirst();

    assertThat(window.recovered()).isFalse();
    assertThat(window.toMillis()).isEqualTo(10_000);
  }

  @Test
  void theWarmUpEndsOnlyOnceTheLastSecondsWereAllAcceptedInUnderASecond() {
    ChaosTimeline timeline = new ChaosTimeline();
    long now = 100_000;
    for (int i = 0; i < 60; i++) { // 30/s for the two seconds that count, one of them slow
      timeline.answered("201", now, now - 4000 + i * 33, i == 10 ? 1_500_000 : 20_000);
    }
    assertThat(timeline.warmedUp(now, 30)).as("one answer took 1.5 s").isFalse();

    ChaosTimeline calm = new ChaosTimeline();
    for (int i = 0; i < 60; i++) {
      calm.answered("201", now, now - 4000 + i * 33, 20_000);
    }
    assertThat(calm.warmedUp(now, 30)).isTrue();
    calm.answered("HTTP 503", now, now - 3000, 4_800_000);
    assertThat(calm.warmedUp(now, 30)).as("a 503").isFalse();
    assertThat(new ChaosTimeline().warmedUp(now, 30)).as("nothing answered yet").isFalse();
    // the warm-up's answers count in no figure once the measured load has started
    calm.start(now);
    assertThat(calm.answers()).isEmpty();
  }
}
