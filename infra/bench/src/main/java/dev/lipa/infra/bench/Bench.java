package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./platform bench}: drives STK pushes through the gateway of the running local platform at fixed arrival rates
 * (open model), counts the callbacks a local receiver gets, reconciles every accepted push with exactly one callback,
 * reads the store's write counters, the broker's offsets and the processes' resident memory, and runs a reference
 * payment (a bare pipeline doing per payment only the platform's essential work, {@link ReferencePipeline}) to print
 * the platform's sustained rate as a fraction of its. See {@link BenchOptions#USAGE} and docs/performance.md.
 *
 * <p>The phases, in order: {@link WarmUp}, then once or {@code --repeat} times a {@link Repetition}:
 * {@link PlatformSteps} (with the {@link StoreKill} probe when asked), {@link Reconciliation}, the work, CPU and memory
 * per payment ({@link Report}, {@link CpuReport}), {@link ReferenceRun}, the two side by side ({@link Comparison}) and
 * {@link Targets}; after repeated runs, their medians with the spread.
 */
public final class Bench {

  private final BenchOptions options;
  private final String runId = UUID.randomUUID().toString().substring(0, 8);
  /** Where the reference's sandbox delay came from, for the header. */
  private String referenceDelaySource = "";

  private Bench(BenchOptions options) {
    this.options = options;
  }

  public static void main(String[] args) {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (BenchOptions.UsageException e) {
      if (e.getMessage() != null) {
        System.err.println("bench: " + e.getMessage());
      }
      System.err.print(BenchOptions.USAGE);
      System.exit(e.getMessage() == null ? 0 : 2);
      return;
    }
    int status;
    try {
      status = new Bench(options).run();
    } catch (PlatformDownException e) {
      System.err.println("bench: " + e.getMessage());
      status = 3;
    } catch (Exception e) {
      System.err.println("bench: failed: " + e);
      e.printStackTrace();
      status = 4;
    }
    System.out.flush();
    System.exit(status);
  }

  private int run() throws Exception {
    SandboxCredentials credentials = SandboxCredentials.read(options.credentials());
    ExecutorService clientExecutor = Executors.newVirtualThreadPerTaskExecutor();
    HttpClient http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .executor(clientExecutor)
        .build();
    try (RequestLimit requestLimit = raiseRequestLimit(http, credentials);
        TokenPool tokens = tokens(http, credentials);
        PlatformProbe probe = new PlatformProbe(options.mongo(), options.kafka(), options.var());
        CallbackCounter callbacks = new CallbackCounter(0, runId);
        OutcomeWatcher outcomes = new OutcomeWatcher(options.kafka());
        ReferenceProcess reference = options.reference() ? startReference(probe) : null;
        // the reference's outcomes, on its own topic (which the pipeline has created by now)
        OutcomeWatcher referenceOutcomes = reference != null
            ? new OutcomeWatcher(options.kafka(), ReferencePipeline.TOPIC) : null;
        ProcessSamples samples = new ProcessSamples(probe)) {
      OpenLoad load = new OpenLoad(options.connections(), options.maxInFlight(),
          TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis()));
      String backend = probe.storeBackend();
      Map<String, Long> memoryBefore = probe.residentMemory();
      printHeader(credentials.gatewayUrl(), backend, memoryBefore, callbacks.url(), reference);
      say("  the organisation's request limit is %d/s for this run (it had %s; put back at the end)",
          RequestLimit.BENCH_REQUESTS_PER_SECOND, requestLimit.previous());
      WorkCounters before = WorkCounters.read(probe);

      Run run = new Run(options, load, probe, callbacks, outcomes, new ConcurrentHashMap<>());
      say("");
      say("== platform: STK pushes through the gateway (open model; latency from each request's intended start)");
      say(Report.STEP_HEADER);
      WarmUp.run(run, samples, platformTarget(credentials, tokens, run));
      StoreKill storeKill = options.killsStore() ? startStoreKill(run) : null;
      Soak soak = options.soaks() ? startSoak(run, samples) : null;
      Repetition.Shared shared = new Repetition.Shared(samples, reference, backend, memoryBefore);
      List<SideFigures> platformRuns = new ArrayList<>();
      List<SideFigures> referenceRuns = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      for (int number = 1; number <= options.repeat(); number++) {
        String title = options.repeat() == 1 ? "this run" : "run " + number + " of " + options.repeat();
        if (number > 1) {
          // each run has its own callback path and accepted payments, so its reconciliation is its own
          run = new Run(options, load, probe, callbacks.alongside("platform-" + number, null), outcomes,
              new ConcurrentHashMap<>());
          before = WorkCounters.read(probe);
          say("");
          say("== platform, %s", title);
          say(Report.STEP_HEADER);
        }
        Run referenceRun = reference == null ? null : new Run(options, load, probe,
            callbacks.alongside("reference-" + number, reference.signingKey()), referenceOutcomes,
            new ConcurrentHashMap<>());
        Repetition.Result result = Repetition.measure(title, shared, run, platformTarget(credentials, tokens, run),
            before, referenceRun, number == 1, storeKill);
        // their callbacks are reconciled: the counters of this run give their paths back
        if (run.callbacks() != callbacks) {
          run.callbacks().close();
        }
        if (referenceRun != null) {
          referenceRun.callbacks().close();
        }
        platformRuns.add(result.platform());
        if (result.reference() != null) {
          referenceRuns.add(result.reference());
        }
        if (!result.ok()) {
          failures.add((options.repeat() == 1 ? "" : title + ": ") + result.failure());
        }
      }
      if (options.repeat() > 1) {
        Comparison.printSummary(platformRuns, referenceRuns);
      }
      if (soak != null) {
        soak.close();
        soak.print();
      }
      if (tokens.renewalProblem() != null) {
        say("  note: renewing a token failed once: %s", tokens.renewalProblem());
      }
      return verdict(failures, storeKill != null);
    } finally {
      clientExecutor.shutdownNow();
    }
  }

  /** STK pushes through the gateway, with their callbacks to the run's counter, accepted into the run's map. */
  private static OpenLoad.Target platformTarget(SandboxCredentials credentials, TokenPool tokens, Run run) {
    return StkRequests.platform(credentials.gatewayUrl(), tokens, run.callbacks().url(), run.acceptedStep());
  }

  /** The reference payment's process, waiting as long as the running platform's sandbox rail does. */
  private ReferenceProcess startReference(PlatformProbe probe) throws IOException, InterruptedException {
    SandboxDelay.Found delay;
    if (options.referenceOutcomeDelayGiven()) {
      delay = new SandboxDelay.Found(Duration.ofMillis(options.referenceOutcomeDelayMillis()),
          "--reference-outcome-delay");
    } else {
      delay = SandboxDelay.of(probe.pids().get("collections-service"));
    }
    referenceDelaySource = delay.source();
    return ReferenceProcess.start(options, delay.delay(), WebhookSigning.newSecret());
  }

  private RequestLimit raiseRequestLimit(HttpClient http, SandboxCredentials credentials)
      throws InterruptedException {
    try {
      return RequestLimit.raise(http, credentials.gatewayUrl(), credentials.organisationId(), options.var());
    } catch (IOException e) {
      throw new PlatformDownException("could not raise the sandbox organisation's request limit through the operator"
          + " API (" + e.getMessage() + "); the default limit would cap the figures");
    }
  }

  private TokenPool tokens(HttpClient http, SandboxCredentials credentials) throws InterruptedException {
    try {
      return new TokenPool(http, credentials.gatewayUrl(), credentials.apiKey(), credentials.apiSecret(),
          options.tokens());
    } catch (IOException e) {
      throw new PlatformDownException("the gateway at " + credentials.gatewayUrl() + " did not give a token ("
          + e.getMessage() + "); is the platform up? Run ./platform up first.");
    }
  }

  /** The store-kill probe, counting the answers of every step from now on. */
  private StoreKill startStoreKill(Run run) {
    StoreKill storeKill = new StoreKill(options);
    long stepsMillis = options.stepMillis() * options.steps().size();
    if (stepsMillis < options.killStoreAtMillis() + options.storeDownMillis() + 30_000) {
      say("  note: the steps (%.0f s) end less than 30 s after the store is due back; the outage may outlast them",
          stepsMillis / 1000.0);
    }
    run.load().observe(storeKill);
    storeKill.startCountingFrom(System.currentTimeMillis());
    return storeKill;
  }

  /** The soak's windows, counting the answers of its one long step from now on. */
  private Soak startSoak(Run run, ProcessSamples samples) {
    Soak soak = new Soak(options.stepMillis(), Soak.WINDOW_MILLIS);
    run.load().observe(soak);
    say("  soak: %s/s for %d minutes, reported per minute (the step's own line follows at its end)",
        Report.rate(options.soakRate()), options.stepMillis() / 60_000);
    soak.start(samples::memoryNow);
    return soak;
  }

  /** 0 when every run passed (every accepted push got exactly one callback, the reference's too), else 1. */
  private static int verdict(List<String> failures, boolean storeKilled) {
    say("");
    if (failures.isEmpty()) {
      say(storeKilled ? "bench: OK (store killed: nothing lost, duplicates only as redeliveries, no 500)"
          : "bench: OK (every accepted push got exactly one callback)");
      return 0;
    }
    say("bench: FAILED (%s)", String.join("; ", failures));
    return 1;
  }

  private void printHeader(String gatewayUrl, String backend, Map<String, Long> rss, String callbackUrl,
      ReferenceProcess reference) {
    say("Lipa bench %s (run %s)%s", Instant.now(), runId, options.smoke() ? " --smoke" : "");
    say("  machine: %s", Machine.describe());
    say("  platform: gateway %s, store backend: %s, platform memory (PSS) %s in %d processes",
        gatewayUrl, backend, Report.mib(rss.values().stream().mapToLong(Long::longValue).sum()), rss.size());
    say("  load: warm-up %s/s for %s, steps %s req/s of %.0f s each; timeout %.0f s; callbacks to %s",
        Report.rate(options.warmupRate()), options.warmupSettle() > 0
            ? String.format(Locale.ROOT, "at most %.0f s (until the JIT settles below %s%% of the machine)",
                options.warmupMillis() / 1000.0,
                BigDecimal.valueOf(options.warmupSettle() * 100).round(MathContext.DECIMAL32).stripTrailingZeros()
                    .toPlainString())
            : String.format(Locale.ROOT, "%.0f s", options.warmupMillis() / 1000.0),
        options.steps().stream().map(Report::rate).toList(), options.stepMillis() / 1000.0,
        options.timeoutMillis() / 1000.0, callbackUrl);
    if (reference != null) {
      say("  reference payment: steps %s req/s; outcomes %d ms after the accept (%s)",
          options.referenceSteps().stream().map(Report::rate).toList(), reference.outcomeDelay().toMillis(),
          referenceDelaySource);
    }
    if (options.repeat() > 1) {
      say("  the measured part (platform and reference steps) runs %d times after one warm-up; medians at the end",
          options.repeat());
    }
    say("  the bench itself (load generator, callback receiver, Kafka reader) runs on the same machine");
  }
}
