package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
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
 * pipeline (the bare essential work of a payment) at the same rates to print the platform's throughput as a fraction
 * of it. See {@link BenchOptions#USAGE} and docs/performance.md.
 *
 * <p>The phases, in order: {@link WarmUp}, {@link PlatformSteps} (with the {@link StoreKill} probe when asked),
 * {@link Reconciliation}, the work, CPU and memory per payment ({@link Report}, {@link CpuReport}),
 * {@link ReferenceRun}, and {@link Targets}.
 */
public final class Bench {

  private final BenchOptions options;
  private final String runId = UUID.randomUUID().toString().substring(0, 8);
  private final Map<String, Integer> acceptedStep = new ConcurrentHashMap<>();

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
        ReferenceProcess reference = options.reference() ? ReferenceProcess.start(options) : null;
        ProcessSamples samples = new ProcessSamples(probe)) {
      Run run = new Run(options, new OpenLoad(options.connections(), options.maxInFlight(),
          TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis())), probe, callbacks, outcomes, acceptedStep);
      String backend = probe.storeBackend();
      Map<String, Long> memoryBefore = probe.residentMemory();
      printHeader(credentials.gatewayUrl(), backend, memoryBefore, callbacks.url());
      say("  the organisation's request limit is %d/s for this run (it had %s; put back at the end)",
          RequestLimit.BENCH_REQUESTS_PER_SECOND, requestLimit.previous());
      PlatformProbe.StoreWrites writesBefore = probe.storeWrites();
      Map<String, Long> offsetsBefore = probe.topicEndOffsets();

      OpenLoad.Target platform = StkRequests.platform(credentials.gatewayUrl(), tokens, callbacks.url(), acceptedStep);
      say("");
      say("== platform: STK pushes through the gateway (open model; latency from each request's intended start)");
      say(Report.STEP_HEADER);
      WarmUp.run(run, samples, platform);
      StoreKill storeKill = options.killsStore() ? startStoreKill(run) : null;
      PlatformSteps.Measured measured = PlatformSteps.run(run, samples, platform);
      if (storeKill != null) {
        storeKill.awaitRestart();
      }

      Reconciliation reconciliation = Reconciliation.await(acceptedStep, callbacks, options.graceMillis());
      // the dispatcher writes its delivery log just after each callback: let it settle before counting writes
      Thread.sleep(2000);
      PlatformProbe.StoreWrites platformWrites = probe.storeWrites().minus(writesBefore);
      Map<String, Long> platformRecords = Report.diff(probe.topicEndOffsets(), offsetsBefore);
      Map<String, Long> memoryAfter = probe.residentMemory();
      long acceptedTotal = acceptedStep.size();

      PlatformSteps.printFinal(run, measured);
      reconciliation.print(acceptedTotal, callbacks);
      if (storeKill != null) {
        storeKill.print();
      }
      say("");
      say("== work per accepted payment (%d accepted, warm-up included; counted by the store and the broker)",
          acceptedTotal);
      Report.printWrites(platformWrites, acceptedTotal, ReferencePipeline.DATABASE);
      Report.printRecords(platformRecords, acceptedTotal, ReferencePipeline.TOPIC);
      say("");
      say("== CPU per accepted payment, by process (ms of CPU time over each step, /proc/<pid>/stat)");
      CpuReport.printCpu(measured.steps(), measured.cpu());
      CpuReport.printJit(measured.steps(), measured.jit(), Runtime.getRuntime().availableProcessors());
      say("");
      say("== resident memory of the local platform (PSS of var/run/*.pid: shared pages counted once)");
      // the platform's own peak: the reference pipeline's scratch documents, which the store holds until the end of
      // its run, are not the platform's memory
      long platformPeakMemory = samples.peakMemory();
      Report.printMemory(memoryBefore, memoryAfter, platformPeakMemory);

      List<Step> referenceSteps = List.of();
      if (reference != null) {
        referenceSteps = ReferenceRun.run(run, samples, reference);
        say("");
        say("== platform / reference");
        Targets.printRatio(measured.steps(), referenceSteps);
      }
      say("");
      say("== targets (issue 7), this run; store backend: %s", backend);
      Targets.printTargets(measured.steps(), referenceSteps, reconciliation.lost(), platformPeakMemory, backend,
          callbacks, outcomes, acceptedStep);
      if (tokens.renewalProblem() != null) {
        say("  note: renewing a token failed once: %s", tokens.renewalProblem());
      }
      return verdict(acceptedTotal, reconciliation, storeKill);
    } finally {
      clientExecutor.shutdownNow();
    }
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

  /**
   * 0 when every accepted push got exactly one callback, else 1. With the store killed, a callback may be delivered
   * twice (its delivery was not recorded before the kill), but only as a redelivery of the same webhook-id, which
   * merchants deduplicate on; nothing may be lost, and the outage answers 503, never 500.
   */
  private static int verdict(long accepted, Reconciliation reconciliation, StoreKill storeKill) {
    boolean ok = storeKill == null
        ? accepted > 0 && reconciliation.lost() == 0 && reconciliation.duplicated() == 0
        : accepted > 0 && reconciliation.lost() == 0 && reconciliation.duplicatedAsNew() == 0
            && storeKill.serverErrors() == 0;
    say("");
    say(ok ? storeKill == null ? "bench: OK (every accepted push got exactly one callback)"
            : "bench: OK (store killed: nothing lost, duplicates only as redeliveries, no 500)"
        : accepted == 0 ? "bench: FAILED (no push was accepted)"
        : "bench: FAILED (%d lost, %d duplicated callbacks, %d with new webhook-ids%s)".formatted(reconciliation.lost(),
            reconciliation.duplicated(), reconciliation.duplicatedAsNew(),
            storeKill == null ? "" : ", " + storeKill.serverErrors() + " 5xx other than 503 in the outage"));
    return ok ? 0 : 1;
  }

  private void printHeader(String gatewayUrl, String backend, Map<String, Long> rss, String callbackUrl) {
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
    say("  the bench itself (load generator, callback receiver, Kafka reader) runs on the same machine");
  }
}
