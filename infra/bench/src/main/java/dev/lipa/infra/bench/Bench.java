package dev.lipa.infra.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./platform bench}: drives STK pushes through the gateway of the running local platform at fixed arrival rates
 * (open model), counts the callbacks a local receiver gets, reconciles every accepted push with exactly one callback,
 * reads the store's write counters, the broker's offsets and the processes' resident memory, and runs a reference
 * pipeline (the bare essential work of a payment) at the same rates to print the platform's throughput as a fraction
 * of it. See {@link BenchOptions#USAGE} and docs/performance.md.
 */
public final class Bench {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** The warm-up's slice: how often it asks whether the JIT has settled. */
  static final long WARMUP_SLICE_MILLIS = 30_000;
  /** The shortest warm-up when it may end early. */
  static final long WARMUP_MIN_MILLIS = 60_000;
  private static final String STK_PATH = "/api/sandbox/v1/stk/new";
  /** The reference pipeline's number (it has no per-number limit). */
  private static final String PAYING_PHONE = "0708374149";
  /**
   * The platform's pushes go to a million paying Kenyan numbers in turn (254710000000 to 254710999999, none of them a
   * magic number of the sandbox): collections-service allows a number 3 prompts a minute and 10 an hour, and a number
   * comes round again only after a million pushes.
   */
  private static final long FIRST_PHONE = 254_710_000_000L;
  private static final int PHONES = 1_000_000;

  private final BenchOptions options;
  private final String runId = UUID.randomUUID().toString().substring(0, 8);
  private final Map<String, Integer> acceptedStep = new ConcurrentHashMap<>();
  private final AtomicLong peakMemory = new AtomicLong();

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
    JsonNode credentials = readCredentials();
    String gatewayUrl = credentials.path("gatewayUrl").asText();
    ExecutorService clientExecutor = Executors.newVirtualThreadPerTaskExecutor();
    HttpClient http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .executor(clientExecutor)
        .build();

    RequestLimit requestLimit;
    try {
      requestLimit = RequestLimit.raise(http, gatewayUrl, credentials.path("organisationId").asText(), options.var());
    } catch (IOException e) {
      throw new PlatformDownException("could not raise the sandbox organisation's request limit through the operator"
          + " API (" + e.getMessage() + "); the default limit would cap the figures");
    }
    TokenPool tokens;
    try {
      tokens = new TokenPool(http, gatewayUrl, credentials.path("apiKey").asText(),
          credentials.path("apiSecret").asText(), options.tokens());
    } catch (IOException e) {
      requestLimit.close();
      throw new PlatformDownException("the gateway at " + gatewayUrl + " did not give a token (" + e.getMessage()
          + "); is the platform up? Run ./platform up first.");
    }

    try (PlatformProbe probe = new PlatformProbe(options.mongo(), options.kafka(), options.var());
        CallbackCounter callbacks = new CallbackCounter(0, runId);
        OutcomeWatcher outcomes = new OutcomeWatcher(options.kafka());
        ReferenceProcess reference = options.reference() ? ReferenceProcess.start(options) : null;
        requestLimit;
        tokens) {
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("bench-memory").factory());
      sampler.scheduleAtFixedRate(() -> sampleMemory(probe), 0, 2, TimeUnit.SECONDS);

      String backend = probe.storeBackend();
      Map<String, Long> memoryBefore = probe.residentMemory();
      printHeader(gatewayUrl, backend, memoryBefore, callbacks.url());
      say("  the organisation's request limit is %d/s for this run (it had %s; put back at the end)",
          RequestLimit.BENCH_REQUESTS_PER_SECOND, requestLimit.previous());

      PlatformProbe.StoreWrites writesBefore = probe.storeWrites();
      Map<String, Long> offsetsBefore = probe.topicEndOffsets();

      OpenLoad load = new OpenLoad(options.connections(), options.maxInFlight(),
          TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis()));
      OpenLoad.Target platform = platformTarget(gatewayUrl, tokens, callbacks.url());

      say("");
      say("== platform: STK pushes through the gateway (open model; latency from each request's intended start)");
      say(Report.STEP_HEADER);
      List<OpenLoad.Step> steps = new ArrayList<>();
      List<ProcessCpu.Usage> stepCpu = new ArrayList<>();
      List<JitTime.Usage> stepJit = new ArrayList<>();
      warmUp(load, platform, probe, callbacks, outcomes);
      StoreKill storeKill = options.killsStore() ? new StoreKill(options) : null;
      if (storeKill != null) {
        long stepsMillis = options.stepMillis() * options.steps().size();
        if (stepsMillis < options.killStoreAtMillis() + options.storeDownMillis() + 30_000) {
          say("  note: the steps (%.0f s) end less than 30 s after the store is due back; the outage may outlast them",
              stepsMillis / 1000.0);
        }
        load.observe(storeKill);
        storeKill.startCountingFrom(System.currentTimeMillis());
      }
      for (int i = 0; i < options.steps().size(); i++) {
        ProcessCpu.Snapshot cpuBefore = cpuSnapshot(probe, null);
        JitTime.Snapshot jitBefore = jitSnapshot(probe);
        OpenLoad.Step step = load.run(Report.rate(options.steps().get(i)) + "/s", i, options.steps().get(i),
            options.stepMillis(), platform);
        stepCpu.add(cpuSnapshot(probe, null).since(cpuBefore));
        stepJit.add(jitSnapshot(probe).since(jitBefore));
        steps.add(step);
        say(Report.stepLine(step, callbacks, outcomes, acceptedStep));
      }

      if (storeKill != null) {
        storeKill.awaitRestart();
      }
      Reconciliation reconciliation = reconcile(callbacks);
      // the dispatcher writes its delivery log just after each callback: let it settle before counting writes
      Thread.sleep(2000);
      PlatformProbe.StoreWrites platformWrites = probe.storeWrites().minus(writesBefore);
      Map<String, Long> platformRecords = diff(probe.topicEndOffsets(), offsetsBefore);
      Map<String, Long> memoryAfter = probe.residentMemory();
      long acceptedTotal = acceptedStep.size();

      say("");
      say("== platform, final figures per step (callbacks counted after the grace period)");
      say(Report.STEP_HEADER);
      for (OpenLoad.Step step : steps) {
        say(Report.stepLine(step, callbacks, outcomes, acceptedStep));
      }
      say("");
      say("== reconciliation (every accepted push must get exactly one callback)");
      say("  accepted (201): %d   with one callback: %d   lost: %d   duplicated: %d (extra callbacks %d)",
          acceptedTotal, reconciliation.exactlyOne, reconciliation.lost, reconciliation.duplicated,
          reconciliation.extraCallbacks);
      say("  callbacks received: %d   for requests the bench never saw accepted: %d   unreadable: %d   waited %.1f s",
          callbacks.total(), reconciliation.unexpected, callbacks.unreadable(), reconciliation.waitedMillis / 1000.0);
      say("  duplicated with more than one webhook-id (not a redelivery of one callback): %d",
          reconciliation.duplicatedAsNew);
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
      Report.printCpu(steps, stepCpu);
      Report.printJit(steps, stepJit, Runtime.getRuntime().availableProcessors());
      say("");
      say("== resident memory of the local platform (PSS of var/run/*.pid: shared pages counted once)");
      // the platform's own peak: the reference pipeline's scratch documents, which the store holds until the end of
      // its run, are not the platform's memory
      long platformPeakMemory = peakMemory.get();
      Report.printMemory(memoryBefore, memoryAfter, platformPeakMemory);

      List<OpenLoad.Step> referenceSteps = List.of();
      if (reference != null) {
        OpenLoad.Target target = referenceTarget(reference.url(), callbacks.url());
        say("");
        say("== reference pipeline: insert + produce only, same store and broker (%s)", reference.url());
        say(Report.STEP_HEADER);
        if (options.referenceWarmupMillis() > 0) {
          OpenLoad.Step warmup = load.run("warm-up", -1, options.warmupRate(), options.referenceWarmupMillis(),
              target);
          say(Report.referenceLine(warmup) + "   (not counted)");
        }
        PlatformProbe.StoreWrites before = probe.storeWrites();
        Map<String, Long> offsets = probe.topicEndOffsets();
        List<OpenLoad.Step> done = new ArrayList<>();
        List<ProcessCpu.Usage> referenceCpu = new ArrayList<>();
        for (int i = 0; i < options.referenceSteps().size(); i++) {
          double rate = options.referenceSteps().get(i);
          ProcessCpu.Snapshot cpuBefore = cpuSnapshot(probe, reference);
          OpenLoad.Step step = load.run(Report.rate(rate) + "/s", i, rate, options.stepMillis(), target);
          referenceCpu.add(cpuSnapshot(probe, reference).since(cpuBefore));
          done.add(step);
          say(Report.referenceLine(step));
        }
        referenceSteps = done;
        PlatformProbe.StoreWrites referenceWrites = probe.storeWrites().minus(before);
        Map<String, Long> referenceRecords = diff(probe.topicEndOffsets(), offsets);
        long referenceAccepted = done.stream().mapToLong(s -> s.accepted.sum()).sum();
        say("  reference work per payment (%d accepted): store writes %s, Kafka records %s; its own RSS %s",
            referenceAccepted,
            Report.perPayment(referenceWrites.perDatabase().getOrDefault(ReferencePipeline.DATABASE, 0L),
                referenceAccepted),
            Report.perPayment(referenceRecords.getOrDefault(ReferencePipeline.TOPIC, 0L), referenceAccepted),
            Report.mib(PlatformProbe.residentOf(reference.pid())));
        say("  reference CPU per accepted payment (ms, by process; the idle services' background work included):");
        Report.printCpu(done, referenceCpu);
        // the reference's documents are scratch data: on the memory backend they would only crowd the store's heap
        probe.dropDatabase(ReferencePipeline.DATABASE);
        say("");
        say("== platform / reference");
        Report.printRatio(steps, referenceSteps);
      }

      say("");
      say("== targets (issue 7), this run; store backend: %s", backend);
      Report.printTargets(steps, referenceSteps, reconciliation.lost, platformPeakMemory, backend, callbacks, outcomes,
          acceptedStep);
      if (tokens.renewalProblem() != null) {
        say("  note: renewing a token failed once: %s", tokens.renewalProblem());
      }
      sampler.shutdownNow();

      // with the store killed, a callback may be delivered twice (its delivery was not recorded before the kill), but
      // only as a redelivery of the same webhook-id, which merchants deduplicate on; nothing may be lost, and the
      // outage answers 503, never 500
      boolean ok = storeKill == null
          ? acceptedTotal > 0 && reconciliation.lost == 0 && reconciliation.duplicated == 0
          : acceptedTotal > 0 && reconciliation.lost == 0 && reconciliation.duplicatedAsNew == 0
              && storeKill.serverErrors() == 0;
      say("");
      say(ok ? storeKill == null ? "bench: OK (every accepted push got exactly one callback)"
              : "bench: OK (store killed: nothing lost, duplicates only as redeliveries, no 500)"
          : acceptedTotal == 0 ? "bench: FAILED (no push was accepted)"
          : "bench: FAILED (%d lost, %d duplicated callbacks, %d with new webhook-ids%s)".formatted(reconciliation.lost,
              reconciliation.duplicated, reconciliation.duplicatedAsNew,
              storeKill == null ? "" : ", " + storeKill.serverErrors() + " 5xx other than 503 in the outage"));
      return ok ? 0 : 1;
    } finally {
      clientExecutor.shutdownNow();
    }
  }

  private JsonNode readCredentials() throws IOException {
    Path file = options.credentials();
    if (!Files.isReadable(file)) {
      throw new PlatformDownException("no credentials at " + file + "; start the platform first: ./platform up");
    }
    JsonNode credentials = JSON.readTree(file.toFile());
    if (credentials.path("gatewayUrl").asText().isBlank() || credentials.path("apiKey").asText().isBlank()) {
      throw new PlatformDownException(file + " lacks gatewayUrl or apiKey; run ./platform up again");
    }
    return credentials;
  }

  private OpenLoad.Target platformTarget(String gatewayUrl, TokenPool tokens, String callbackUrl) {
    URI uri = URI.create(gatewayUrl + STK_PATH);
    InetSocketAddress address = address(uri);
    return new OpenLoad.Target() {
      @Override
      public InetSocketAddress address() {
        return address;
      }

      @Override
      public byte[] request(long sequence) {
        return post(uri, "Authorization: Bearer " + tokens.next() + "\r\n",
            body(Long.toString(FIRST_PHONE + Math.floorMod(sequence, PHONES)), callbackUrl));
      }

      @Override
      public void accepted(String responseBody, int step) {
        String requestId = Json.field(responseBody, "requestId");
        if (requestId != null) {
          acceptedStep.put(requestId, step);
        }
      }
    };
  }

  private OpenLoad.Target referenceTarget(String url, String callbackUrl) {
    URI uri = URI.create(url);
    InetSocketAddress address = address(uri);
    byte[] request = post(uri, "", body(PAYING_PHONE, callbackUrl));
    return new OpenLoad.Target() {
      @Override
      public InetSocketAddress address() {
        return address;
      }

      @Override
      public byte[] request(long sequence) {
        return request;
      }

      @Override
      public void accepted(String responseBody, int step) {
        // the reference has no callbacks to reconcile
      }
    };
  }

  private static InetSocketAddress address(URI uri) {
    return new InetSocketAddress(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 80);
  }

  /** A whole HTTP/1.1 JSON POST; {@code headers} are extra header lines, each ending in CRLF. */
  private static byte[] post(URI uri, String headers, String body) {
    byte[] content = body.getBytes(StandardCharsets.UTF_8);
    String head = "POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
        + "\r\nContent-Type: application/json\r\nAccept: application/json\r\n" + headers
        + "Content-Length: " + content.length + "\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
    byte[] request = Arrays.copyOf(headBytes, headBytes.length + content.length);
    System.arraycopy(content, 0, request, headBytes.length, content.length);
    return request;
  }

  private static String body(String phone, String callbackUrl) {
    return "{\"description\":\"Bench order\",\"phoneNumber\":\"" + phone + "\",\"amount\":10,"
        + "\"accountReference\":\"BENCH\",\"callbackUrl\":\"" + callbackUrl + "\"}";
  }

  /** Waits (at most the grace period) until every accepted push has a callback, then a little for duplicates. */
  private Reconciliation reconcile(CallbackCounter callbacks) throws InterruptedException {
    long started = System.currentTimeMillis();
    long deadline = started + options.graceMillis();
    while (System.currentTimeMillis() < deadline && missing(callbacks) > 0) {
      Thread.sleep(250);
    }
    // a duplicate would come from a redelivery: give it a moment to show
    Thread.sleep(Math.min(3000, Math.max(500, options.graceMillis() / 10)));
    Reconciliation r = new Reconciliation();
    r.waitedMillis = System.currentTimeMillis() - started;
    for (String requestId : acceptedStep.keySet()) {
      CallbackCounter.Received received = callbacks.get(requestId);
      if (received == null) {
        r.lost++;
      } else if (received.count.get() == 1) {
        r.exactlyOne++;
      } else {
        r.duplicated++;
        r.extraCallbacks += received.count.get() - 1;
        if (received.webhookIds.size() > 1) {
          r.duplicatedAsNew++;
        }
      }
    }
    r.unexpected = callbacks.all().keySet().stream().filter(id -> !acceptedStep.containsKey(id)).count();
    return r;
  }

  private long missing(CallbackCounter callbacks) {
    return acceptedStep.keySet().stream().filter(id -> callbacks.get(id) == null).count();
  }

  /** CPU ticks of the platform's processes, the bench itself and (when it runs) the reference pipeline. */
  /**
   * The warm-up: slices of at most {@link #WARMUP_SLICE_MILLIS} at the warm-up rate, up to {@code --warmup-seconds}.
   * With a settle share, it ends early, once at least {@link #WARMUP_MIN_MILLIS} have run, after a slice in which the
   * platform's JIT compiled for less than that share of the machine's time: the figures after it measure the platform,
   * not its compilers.
   */
  private void warmUp(OpenLoad load, OpenLoad.Target platform, PlatformProbe probe, CallbackCounter callbacks,
      OutcomeWatcher outcomes) {
    int cores = Runtime.getRuntime().availableProcessors();
    long done = 0;
    double lastShare = Double.NaN;
    while (done < options.warmupMillis()) {
      long slice = options.warmupSettle() > 0
          ? Math.min(WARMUP_SLICE_MILLIS, options.warmupMillis() - done) : options.warmupMillis();
      JitTime.Snapshot jitBefore = jitSnapshot(probe);
      long startedNanos = System.nanoTime();
      OpenLoad.Step warmup = load.run("warm-up", -1, options.warmupRate(), slice, platform);
      JitTime.Usage jit = jitSnapshot(probe).since(jitBefore);
      double share = jit.shareOf(System.nanoTime() - startedNanos, cores);
      say("%s   (not counted; %.0f-%.0f s; %s)", Report.stepLine(warmup, callbacks, outcomes, acceptedStep),
          done / 1000.0, (done + slice) / 1000.0, Report.jitShare(jit, share));
      done += slice;
      lastShare = jit.readable() ? share : Double.NaN;
      // unreadable counters (NaN) never end it early: the whole --warmup-seconds runs
      if (options.warmupSettle() > 0 && done >= WARMUP_MIN_MILLIS && lastShare < options.warmupSettle()) {
        say("  warm-up settled after %.0f s: the JIT compiled for %.1f%% of the machine's time in its last slice",
            done / 1000.0, lastShare * 100);
        return;
      }
    }
    if (options.warmupSettle() > 0 && lastShare >= options.warmupSettle()) {
      say("  warm-up ended at --warmup-seconds %.0f without settling (the JIT's share was %.0f%% in its last slice)",
          options.warmupMillis() / 1000.0, lastShare * 100);
    }
  }

  private static JitTime.Snapshot jitSnapshot(PlatformProbe probe) {
    try {
      return JitTime.take(probe.pids());
    } catch (IOException e) {
      return JitTime.take(Map.of());
    }
  }

  private static ProcessCpu.Snapshot cpuSnapshot(PlatformProbe probe, ReferenceProcess reference) {
    Map<String, Long> pids = new TreeMap<>();
    try {
      pids.putAll(probe.pids());
    } catch (IOException e) {
      // var/run unreadable: the bench's own figures still count
    }
    pids.put("(the bench itself)", ProcessHandle.current().pid());
    if (reference != null) {
      pids.put("(reference pipeline)", reference.pid());
    }
    return ProcessCpu.take(pids);
  }

  private void sampleMemory(PlatformProbe probe) {
    try {
      long sum = probe.residentMemory().values().stream().mapToLong(Long::longValue).sum();
      peakMemory.accumulateAndGet(sum, Math::max);
    } catch (IOException e) {
      // a pid file being rewritten: the next sample counts
    }
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

  private static Map<String, Long> diff(Map<String, Long> after, Map<String, Long> before) {
    Map<String, Long> diff = new TreeMap<>();
    after.forEach((topic, n) -> {
      long d = n - before.getOrDefault(topic, 0L);
      if (d != 0) {
        diff.put(topic, d);
      }
    });
    return diff;
  }

  static void say(String format, Object... args) {
    System.out.println(args.length == 0 ? format : String.format(Locale.ROOT, format, args));
    System.out.flush();
  }

  private static final class Reconciliation {
    long exactlyOne;
    long lost;
    long duplicated;
    long duplicatedAsNew;
    long extraCallbacks;
    long unexpected;
    long waitedMillis;
  }

  /** The platform is not up (or not reachable): a clear message, exit status 3. */
  static final class PlatformDownException extends RuntimeException {
    PlatformDownException(String message) {
      super(message, null, false, false);
    }
  }

  /** The reference pipeline as a child process of the bench, with the bench's class path. */
  static final class ReferenceProcess implements AutoCloseable {
    private final Process process;
    private final String url;

    private ReferenceProcess(Process process, String url) {
      this.process = process;
      this.url = url;
    }

    static ReferenceProcess start(BenchOptions options) throws IOException, InterruptedException {
      int port;
      try (ServerSocket socket = new ServerSocket(0)) {
        port = socket.getLocalPort();
      }
      String java = ProcessHandle.current().info().command().orElse("java");
      Path log = options.var().resolve("logs").resolve("bench-reference.log");
      Files.createDirectories(log.getParent());
      Process process = new ProcessBuilder(java, "-Dlipa.component=bench-reference", "-Xss512k",
          "-XX:+UseSerialGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
          ReferencePipeline.class.getName(), "--port", String.valueOf(port), "--mongo", options.mongo(),
          "--kafka", options.kafka())
          .redirectErrorStream(true)
          .start();
      CountDownLatch ready = new CountDownLatch(1);
      String[] url = new String[1];
      Thread.ofPlatform().daemon().name("bench-reference-log").start(() -> {
        try (BufferedReader lines = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            var out = Files.newBufferedWriter(log)) {
          String line;
          while ((line = lines.readLine()) != null) {
            out.write(line);
            out.newLine();
            out.flush();
            if (line.startsWith("reference pipeline ready on ")) {
              url[0] = line.substring("reference pipeline ready on ".length()).strip();
              ready.countDown();
            }
          }
        } catch (IOException e) {
          // the process ended
        }
      });
      if (!ready.await(60, TimeUnit.SECONDS) || url[0] == null) {
        process.destroyForcibly();
        throw new IOException("the reference pipeline did not start; see " + log);
      }
      return new ReferenceProcess(process, url[0]);
    }

    String url() {
      return url;
    }

    long pid() {
      return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
