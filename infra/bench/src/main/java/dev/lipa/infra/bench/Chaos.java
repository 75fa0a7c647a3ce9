package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * {@code ./platform chaos}: a steady open-model load of STK pushes and payouts through every gateway of the running
 * local cluster while it kills, pauses and restarts its processes one fault at a time ({@link ChaosFault#plan}), then
 * reconciles what the merchant saw (every 201 with exactly one callback) and what the store holds (every acknowledged
 * payment there and final, the ledger equal to its movements), and prints each fault's window and recovery. See
 * {@link ChaosOptions#USAGE} and docs/operations.md, "What each fault costs".
 */
public final class Chaos {

  /** The wait between one replica of a rolling restart being healthy again and the next one's stop. */
  private static final long ROLLING_SETTLE_MILLIS = 6000;
  /** How much longer than {@code --warmup-seconds} the warm-up waits for the platform to become calm. */
  private static final long WARMUP_MORE_MILLIS = 120_000;

  private final ChaosOptions options;
  private final String runId = UUID.randomUUID().toString().substring(0, 8);

  private Chaos(ChaosOptions options) {
    this.options = options;
  }

  public static void main(String[] args) {
    ChaosOptions options;
    try {
      options = ChaosOptions.parse(args);
    } catch (ChaosOptions.UsageException e) {
      if (e.getMessage() != null) {
        System.err.println("chaos: " + e.getMessage());
      }
      System.err.print(ChaosOptions.USAGE);
      System.exit(e.getMessage() == null ? 0 : 2);
      return;
    }
    int status;
    try {
      status = new Chaos(options).run();
    } catch (PlatformDownException e) {
      System.err.println("chaos: " + e.getMessage());
      status = 3;
    } catch (Exception e) {
      System.err.println("chaos: failed: " + e);
      e.printStackTrace();
      status = 4;
    }
    System.out.flush();
    System.exit(status);
  }

  private int run() throws Exception {
    SandboxCredentials credentials = SandboxCredentials.read(options.var().resolve("sandbox-credentials.json"));
    String firstGateway = options.gateways().getFirst();
    ChaosProcesses processes = new ChaosProcesses(options.var(), options.platformCommand());
    List<String> running = processes.running();
    List<ChaosFault> faults;
    try {
      faults = options.sustainRates().isEmpty() ? ChaosFault.plan(options, running) : List.of();
    } catch (IllegalArgumentException e) {
      System.err.println("chaos: " + e.getMessage());
      return 2;
    }
    ExecutorService clientExecutor = Executors.newVirtualThreadPerTaskExecutor();
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).executor(clientExecutor).build();
    try (RequestLimit limit = raiseLimit(http, firstGateway, credentials);
        TokenPool tokens = new TokenPool(http, firstGateway, credentials.apiKey(), credentials.apiSecret(), 4);
        CallbackCounter callbacks = new CallbackCounter(0, runId);
        MongoClient mongo = MongoClients.create(options.mongo())) {
      say("Lipa chaos %s (run %s)%s", Instant.now(), runId, options.shortRun() ? " --short" : "");
      say("  machine: %s", Machine.describe());
      say("  running: %s", String.join(" ", running));
      say("  load: %s/s in all (STK pushes and payouts, half each) through %s; timeout %.0f s; callbacks to %s",
          Report.rate(options.rate()), String.join(" and ", options.gateways()), options.timeoutMillis() / 1000.0,
          callbacks.url());
      if (!options.sustainRates().isEmpty()) {
        say("  no fault (--sustain): steps of %s/s after the warm-up", options.sustainRates().stream()
            .map(Report::rate).collect(java.util.stream.Collectors.joining(", ")));
      } else {
        say("  faults, %.0f s of calm before, between and after them:", options.calmMillis() / 1000.0);
        faults.forEach(f -> say("    %-40s %s", f.name, f.kind == ChaosFault.Kind.ROLLING_RESTART
            ? String.join(", ", f.components) : "for %.0f s".formatted(f.holdMillis / 1000.0)));
        say("  restarts go through ./platform start <component> (log: %s)", processes.restartLog());
      }

      ChaosTimeline timeline = new ChaosTimeline();
      Map<String, Integer> stk = new ConcurrentHashMap<>();
      Map<String, Integer> payouts = new ConcurrentHashMap<>();
      List<OpenLoad> loads = new ArrayList<>();
      List<Thread> loadThreads = new ArrayList<>();
      double perTarget = options.rate() / 2 / options.gateways().size(); // an STK and a payout target per gateway
      long endless = TimeUnit.HOURS.toMillis(6);
      for (OpenLoad.Target target : targets(tokens, callbacks, stk, payouts)) {
        OpenLoad load = new OpenLoad(options.connections(), 20_000,
            TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis()));
        load.observe(timeline);
        loads.add(load);
        loadThreads.add(Thread.ofPlatform().name("chaos-load-" + loads.size())
            .start(() -> load.run("chaos", 0, perTarget, endless, target)));
      }
      if (options.warmupMillis() > 0) {
        say("");
        say("== warm-up: at least %.0f s of the same load, until 2 s in a row are calm (every request accepted"
            + " in under a second; at most %.0f s more), measured in no figure (its payments are reconciled too)",
            options.warmupMillis() / 1000.0, WARMUP_MORE_MILLIS / 1000.0);
        long warmupStart = System.currentTimeMillis();
        Thread.sleep(options.warmupMillis());
        long giveUp = System.currentTimeMillis() + WARMUP_MORE_MILLIS;
        while (!timeline.warmedUp(System.currentTimeMillis(), options.rate())
            && System.currentTimeMillis() < giveUp) {
          Thread.sleep(500);
        }
        say("  warm-up over after %.0f s%s", (System.currentTimeMillis() - warmupStart) / 1000.0,
            timeline.warmedUp(System.currentTimeMillis(), options.rate()) ? "" : " (not calm yet: measuring anyway)");
      }
      if (!options.sustainRates().isEmpty()) {
        loads.forEach(OpenLoad::stop);
        for (Thread thread : loadThreads) {
          thread.join(options.timeoutMillis() + 10_000);
        }
        List<ChaosSustain.Result> steps = ChaosSustain.measure(options, callbacks, accepted -> targets(tokens,
            callbacks, accepted, accepted));
        return ChaosSustain.sustainedRate(steps) > 0 ? 0 : 1;
      }
      timeline.start(System.currentTimeMillis());
      say("");
      say("== faults (seconds since the measured load started)");
      Thread.sleep(options.calmMillis());
      for (ChaosFault fault : faults) {
        inject(fault, processes, timeline.startMillis());
        Thread.sleep(options.calmMillis());
      }
      loads.forEach(OpenLoad::stop);
      long loadEnd = System.currentTimeMillis();
      for (Thread thread : loadThreads) {
        thread.join(options.timeoutMillis() + 10_000);
      }
      say("  %6.1f  load stopped", (loadEnd - timeline.startMillis()) / 1000.0);

      Map<String, Integer> accepted = new HashMap<>(stk);
      accepted.putAll(payouts);
      Reconciliation callbacksSeen = Reconciliation.await(accepted, callbacks, options.graceMillis());
      callbacksSeen.print(accepted.size(), callbacks);
      return report(faults, timeline, loadEnd, callbacksSeen, new ChaosReconciliation(mongo), stk.keySet(),
          payouts.keySet());
    } finally {
      clientExecutor.shutdownNow();
    }
  }

  /** Per gateway, STK pushes (their accepted ids into {@code stk}) and payouts (into {@code payouts}). */
  private List<OpenLoad.Target> targets(TokenPool tokens, CallbackCounter callbacks, Map<String, Integer> stk,
      Map<String, Integer> payouts) {
    List<OpenLoad.Target> targets = new ArrayList<>();
    for (int g = 0; g < options.gateways().size(); g++) {
      String gateway = options.gateways().get(g);
      targets.add(StkRequests.platform(gateway, tokens, callbacks.url(), stk));
      targets.add(PayoutRequests.platform(gateway, tokens, callbacks.url(), payouts, g));
    }
    return targets;
  }

  private RequestLimit raiseLimit(HttpClient http, String gateway, SandboxCredentials credentials)
      throws InterruptedException {
    try {
      return RequestLimit.raise(http, gateway, credentials.organisationId(), options.var());
    } catch (IOException e) {
      throw new PlatformDownException("could not raise the sandbox organisation's request limit through " + gateway
          + " (" + e.getMessage() + "); is the cluster up? Run ./platform up --cluster first.");
    }
  }

  /** Does the fault, waits its hold, repairs it, and says so with the times since the load started. */
  private static void inject(ChaosFault fault, ChaosProcesses processes, long startMillis) {
    try {
      fault.injectedAtMillis = System.currentTimeMillis();
      say("  %6.1f  %s", seconds(fault.injectedAtMillis, startMillis), fault.name);
      switch (fault.kind) {
        case KILL -> {
          for (String c : fault.components) {
            processes.kill(c);
          }
          Thread.sleep(fault.holdMillis);
          processes.startAll(fault.components);
        }
        case PAUSE -> {
          for (String c : fault.components) {
            processes.pause(c);
          }
          Thread.sleep(fault.holdMillis);
          for (String c : fault.components) {
            processes.resume(c);
          }
        }
        case ROLLING_RESTART -> {
          for (String c : fault.components) {
            if (!c.equals(fault.components.getFirst())) {
              // the gateways see the restarted replica ready within two health checks (2 s each); the next one stops
              // only then, so that each gateway always has a replica in its rotation
              Thread.sleep(ROLLING_SETTLE_MILLIS);
            }
            long stopping = System.currentTimeMillis();
            processes.terminate(c);
            long stopped = System.currentTimeMillis();
            processes.start(c);
            say("  %6.1f    %s: stopped in %.1f s, healthy again %.1f s later", seconds(System.currentTimeMillis(),
                startMillis), c, (stopped - stopping) / 1000.0, (System.currentTimeMillis() - stopped) / 1000.0);
          }
        }
        default -> throw new IllegalStateException(fault.kind.name());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fault.problem = "interrupted";
    } catch (Exception e) {
      fault.problem = e.toString();
      // whatever the fault left stopped or paused must not stay so for the rest of the run
      fault.components.forEach(c -> {
        try {
          processes.resume(c);
        } catch (Exception ignored) {
          // not running: started below
        }
      });
      try {
        processes.startMissing();
      } catch (Exception again) {
        fault.problem += "; and starting it again: " + again;
      }
    }
    fault.repairedAtMillis = System.currentTimeMillis();
    say("  %6.1f  %s: repaired%s", seconds(fault.repairedAtMillis, startMillis), fault.name,
        fault.problem == null ? "" : " (PROBLEM: " + fault.problem + ")");
  }

  private int report(List<ChaosFault> faults, ChaosTimeline timeline, long loadEnd, Reconciliation callbacksSeen,
      ChaosReconciliation store, Set<String> stk, Set<String> payouts) throws InterruptedException {
    List<ChaosTimeline.Answer> answers = timeline.answers();
    long start = timeline.startMillis();
    List<ChaosTimeline.Window> windows = ChaosTimeline.windows(faults, answers, loadEnd);

    say("");
    say("== the store (read directly): acknowledged payments, final states, ledger movements");
    Set<String> journal = store.journalIds();
    ChaosReconciliation.Payments stkPayments = store.stk(stk, journal);
    ChaosReconciliation.Payments payoutPayments = store.payouts(payouts, journal);
    ChaosReconciliation.print("STK pushes", stkPayments);
    ChaosReconciliation.print("payouts", payoutPayments);
    ChaosReconciliation.Ledger ledger = store.ledger();
    for (int again = 0; again < 3 && !ledger.differences().isEmpty(); again++) {
      Thread.sleep(5000); // a movement applied between the two reads: read again once it has settled
      ledger = store.ledger();
    }
    say("  ledger: %d accounts, %d movements; accounts whose balances differ from their movements: %d",
        ledger.accounts(), ledger.entries(), ledger.differences().size());
    ledger.differences().stream().limit(10).forEach(d -> say("    %s", d));

    say("");
    say("== faults: windows (from the fault until the first whole second after its repair with every request");
    say("   accepted and p99 < 1 s) and what failed in them");
    say("  %-40s %8s %8s %10s %9s %10s  %s", "fault", "at (s)", "repair", "recovered", "+repair", "p99 (ms)",
        "failed in the window");
    for (ChaosTimeline.Window w : windows) {
      ChaosFault f = w.fault();
      say("  %-40s %8.1f %8.1f %10s %9s %10.0f  %d%s%s", f.name, seconds(f.injectedAtMillis, start),
          (f.repairedAtMillis - f.injectedAtMillis) / 1000.0,
          w.recovered() ? "%.1f s".formatted((w.toMillis() - f.injectedAtMillis) / 1000.0) : "NOT",
          w.recovered() ? "%.1f s".formatted((w.toMillis() - f.repairedAtMillis) / 1000.0) : "-",
          w.p99Millis(), w.failed(), w.failures().isEmpty() ? "" : " " + w.failures(),
          f.problem == null ? "" : " PROBLEM: " + f.problem);
    }

    Histogram inside = ChaosTimeline.histogram();
    Histogram outside = ChaosTimeline.histogram();
    List<ChaosTimeline.Answer> failedOutside = new ArrayList<>();
    long failed = 0;
    for (ChaosTimeline.Answer a : answers) {
      boolean in = ChaosTimeline.inside(a, windows);
      if (a.accepted()) {
        (in ? inside : outside).recordValue(a.micros());
      } else {
        failed++;
        if (!in) {
          failedOutside.add(a);
        }
      }
    }
    say("");
    say("== requests");
    say("  sent %d, accepted %d, failed %d (outside every window: %d)", answers.size(),
        answers.size() - failed, failed, failedOutside.size());
    failedOutside.stream().limit(10).forEach(a -> say("    failed outside a window at %.1f s: %s after %.1f s",
        seconds(a.dueMillis(), start), a.outcome(), a.micros() / 1e6));
    say("  accept latency outside the windows: p50 %.0f ms, p99 %.0f ms; inside: p50 %.0f ms, p99 %.0f ms",
        percentile(outside, 50), percentile(outside, 99), percentile(inside, 50), percentile(inside, 99));
    long rollingFailures = windows.stream().filter(w -> w.fault().kind == ChaosFault.Kind.ROLLING_RESTART)
        .mapToLong(ChaosTimeline.Window::failed).sum();
    windows.stream().filter(w -> w.fault().allBrokers()).forEach(w -> {
      double steady = percentile(outside, 99);
      say("  every broker down: accept p99 %.0f ms in its window against %.0f ms steady (%.1fx; the aim: at most 2x)",
          w.p99Millis(), steady, w.p99Millis() / steady);
    });

    boolean lost = stkPayments.lost() + payoutPayments.lost() > 0;
    boolean ok = !answers.isEmpty() && !lost && callbacksSeen.lost() == 0 && callbacksSeen.duplicatedAsNew() == 0
        && stkPayments.notFinal() + payoutPayments.notFinal() == 0
        && stkPayments.ledgerMissing() + payoutPayments.ledgerMissing() == 0
        && ledger.differences().isEmpty() && failedOutside.isEmpty() && rollingFailures == 0
        && faults.stream().allMatch(f -> f.problem == null);
    say("");
    say(ok ? "chaos: OK (nothing lost, every callback once, every failure inside a fault's window)"
        : ("chaos: FAILED (lost %d, callbacks missing %d, duplicated as new %d, not final %d, ledger differences %d,"
            + " failed outside a window %d, failed in the rolling restart %d, faults with a problem %d)").formatted(
            stkPayments.lost() + payoutPayments.lost(), callbacksSeen.lost(), callbacksSeen.duplicatedAsNew(),
            stkPayments.notFinal() + payoutPayments.notFinal(), ledger.differences().size(), failedOutside.size(),
            rollingFailures, faults.stream().filter(f -> f.problem != null).count()));
    return ok ? 0 : 1;
  }

  private static double seconds(long atMillis, long startMillis) {
    return (atMillis - startMillis) / 1000.0;
  }

  private static double percentile(Histogram h, double p) {
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(p) / 1000.0;
  }
}
