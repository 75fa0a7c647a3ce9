package dev.lipa.infra.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The options of {@code ./platform bench}; see {@link #USAGE}. */
record BenchOptions(
    Path var,
    Path credentials,
    String kafka,
    String mongo,
    List<Double> steps,
    long stepMillis,
    double warmupRate,
    long warmupMillis,
    double warmupSettle,
    boolean reference,
    List<Double> referenceSteps,
    long referenceWarmupMillis,
    long graceMillis,
    long timeoutMillis,
    int maxInFlight,
    int connections,
    int tokens,
    boolean smoke,
    long killStoreAtMillis,
    long storeDownMillis,
    Path platformCommand,
    int repeat,
    long referenceOutcomeDelayMillis,
    double soakRate) {

  /** The longest {@code --soak-minutes}: a day. */
  static final int MAX_SOAK_MINUTES = 1440;
  /** The soak's length when {@code --soak-minutes} is not given (issue 18's soak). */
  static final int DEFAULT_SOAK_MINUTES = 30;

  /** The most {@code --repeat} allows: each repetition is a whole measured run. */
  static final int MAX_REPEAT = 20;
  /** The longest {@code --reference-outcome-delay}: ten minutes, far beyond any sandbox setting. */
  static final double MAX_OUTCOME_DELAY_SECONDS = 600;

  static final String USAGE = """
      usage: ./platform bench [options]   (against the running local platform: ./platform up first)
        --steps 250,500,1000,2000,3000   arrival rates (STK pushes per second), one step each
        --step-seconds 30                length of each step
        --warmup-rate 500                rate of the warm-up before the steps
        --warmup-seconds 300             the longest warm-up (0 for none); every service JIT-compiles its
                                         hot path on the same 2 cores, which takes minutes, not seconds
        --warmup-settle 0.10             the warm-up runs in slices of 30 s and ends early (after 60 s at
                                         least) once the platform's JIT compiled for less than this share of
                                         the machine's time in a slice; 0 runs the whole --warmup-seconds
        --reference-steps <rates>        rates for the reference payment (default: the same steps)
        --reference-warmup-seconds 30    warm-up of the reference payment at the warm-up rate
        --reference-outcome-delay <s>    the reference's sandbox delay from accept to outcome, in seconds or with a
                                         unit (300ms, 3s); default: what the running collections-service uses
                                         (its LIPA_COLLECTIONS_SANDBOX_OUTCOMEDELAY or SANDBOX_OUTCOME_DELAY), else 3 s
        --no-reference                   skip the reference payment: a bare pipeline on the same store and broker
                                         doing per payment only the platform's essential work (accept, outcome
                                         after the sandbox delay, ledger credit, signed callback and its delivery)
        --repeat 1                       run the measured part (platform steps and reference steps; the warm-up
                                         once, before the first) this many times, 1 to 20, and print per step the
                                         median and the spread (min-max) of the key figures
        --grace-seconds 60               how long to wait for the last callbacks before reconciling
        --timeout-seconds 10             a request not answered by then counts as a timeout
        --connections 256                keep-alive connections the client sends over (a request due while all
                                         are busy waits in the client's queue; its wait counts in its latency)
        --max-in-flight 4000             the client's limit of queued and open requests (beyond it: an error)
        --tokens 4                       access tokens used in turn (bought again every 3 minutes)
        --smoke                          a few seconds at 20/s after a 5 s warm-up (the system test's run)
        --kill-store-at <seconds>        the store-kill probe: SIGKILL the embedded store (var/run/store.pid) this
                                         long after the first step starts (after the warm-up), start it again with
                                         ./platform up after --store-down, and keep offering load throughout; the
                                         answers during the outage are counted by status, and the reconciliation
                                         says what was lost or duplicated (make the steps outlast the outage);
                                         it runs once, never with --repeat
        --store-down <seconds>           how long the store stays down (default 10)
        --soak <rate>                    instead of the steps: one long step at this rate after the warm-up
                                         (--soak-minutes, 30 by default), reported per minute (accepted/s, p50,
                                         p99, the platform's PSS); it holds when no minute after the first five has
                                         a p99 more than 25% above theirs, and the PSS grows at most 10% after them
                                         (no reference payment; not with --repeat, --smoke or --kill-store-at)
        --soak-minutes 30                the soak's length, 2 to 1440 minutes
        --mongo <uri> --kafka <host:port> --var <dir> --credentials <file> --platform <script>
                                         (./platform passes these)
      The reference payment runs after the platform's steps, on the same store and broker, and the two are printed
      side by side per step (accepted/s, sustained: >= 99% accepted and p99 < 1 s, p50/p99/p99.9, outcome -> callback
      p99, CPU ms per payment; store writes and Kafka records per payment, each side on its own databases and topics;
      lost and duplicated callbacks) with the ratio of the sustained rates, platform / reference (target >= 0.5).
      The store backend is the running platform's: LIPA_STORE_BACKEND=memory ./platform up starts the memory one.
      Exit status 1 when an accepted request (the reference's included) did not get exactly one callback.
      """;

  static BenchOptions parse(String[] args) {
    Path var = Path.of("var");
    Path credentials = null;
    String kafka = "127.0.0.1:9092";
    String mongo = "mongodb://127.0.0.1:27017";
    List<Double> steps = List.of(250.0, 500.0, 1000.0, 2000.0, 3000.0);
    List<Double> referenceSteps = null;
    double stepSeconds = 30;
    double warmupRate = 500;
    double warmupSeconds = 300;
    double warmupSettle = CpuReport.UNSETTLED_JIT_SHARE;
    double referenceWarmupSeconds = 30;
    boolean reference = true;
    double graceSeconds = 60;
    double timeoutSeconds = 10;
    int maxInFlight = 4000;
    int connections = 256;
    int tokens = 4;
    boolean smoke = false;
    boolean stepsGiven = false;
    boolean stepSecondsGiven = false;
    boolean warmupGiven = false;
    boolean graceGiven = false;
    double killStoreAt = -1;
    double storeDown = 10;
    Path platformCommand = Path.of("platform");
    int repeat = 1;
    long referenceOutcomeDelayMillis = -1;
    double soakRate = -1;
    int soakMinutes = DEFAULT_SOAK_MINUTES;
    boolean soakMinutesGiven = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--var" -> var = Path.of(value(args, ++i, arg));
        case "--credentials" -> credentials = Path.of(value(args, ++i, arg));
        case "--kafka" -> kafka = value(args, ++i, arg);
        case "--mongo" -> mongo = value(args, ++i, arg);
        case "--steps" -> {
          steps = rates(value(args, ++i, arg));
          stepsGiven = true;
        }
        case "--reference-steps" -> referenceSteps = rates(value(args, ++i, arg));
        case "--step-seconds" -> {
          stepSeconds = positive(value(args, ++i, arg), arg);
          stepSecondsGiven = true;
        }
        case "--warmup-rate" -> {
          warmupRate = positive(value(args, ++i, arg), arg);
          warmupGiven = true;
        }
        case "--warmup-seconds" -> {
          warmupSeconds = number(value(args, ++i, arg), arg);
          warmupGiven = true;
        }
        case "--warmup-settle" -> {
          warmupSettle = number(value(args, ++i, arg), arg);
          if (warmupSettle > 1) {
            // a share, not a percentage: 5 would end every warm-up after its first minute
            throw new UsageException("--warmup-settle is a share of the machine's time from 0 to 1 (0.10 is 10%), not "
                + args[i]);
          }
        }
        case "--reference-warmup-seconds" -> referenceWarmupSeconds = number(value(args, ++i, arg), arg);
        case "--no-reference" -> reference = false;
        case "--reference-outcome-delay" -> referenceOutcomeDelayMillis = duration(value(args, ++i, arg), arg);
        case "--repeat" -> repeat = whole(value(args, ++i, arg), arg, 1, MAX_REPEAT);
        case "--grace-seconds" -> {
          graceSeconds = number(value(args, ++i, arg), arg);
          graceGiven = true;
        }
        case "--timeout-seconds" -> timeoutSeconds = positive(value(args, ++i, arg), arg);
        case "--max-in-flight" -> maxInFlight = whole(value(args, ++i, arg), arg, 1, 1_000_000);
        case "--connections" -> connections = whole(value(args, ++i, arg), arg, 1, 10_000);
        case "--tokens" -> tokens = whole(value(args, ++i, arg), arg, 1, 100);
        case "--smoke" -> smoke = true;
        case "--kill-store-at" -> killStoreAt = seconds(value(args, ++i, arg), arg);
        case "--store-down" -> storeDown = seconds(value(args, ++i, arg), arg);
        case "--platform" -> platformCommand = Path.of(value(args, ++i, arg));
        case "--soak" -> soakRate = positive(value(args, ++i, arg), arg);
        case "--soak-minutes" -> {
          soakMinutes = whole(value(args, ++i, arg), arg, 2, MAX_SOAK_MINUTES);
          soakMinutesGiven = true;
        }
        case "-h", "--help" -> throw new UsageException(null);
        default -> throw new UsageException("unknown option " + arg);
      }
    }
    if (smoke) {
      if (!stepsGiven) {
        steps = List.of(20.0);
      }
      if (!stepSecondsGiven) {
        stepSeconds = 5;
      }
      if (!warmupGiven) {
        warmupRate = 20;
        warmupSeconds = 5;
        warmupSettle = 0;
      }
      if (!graceGiven) {
        graceSeconds = 30;
      }
      referenceWarmupSeconds = Math.min(referenceWarmupSeconds, 2);
    }
    if (killStoreAt >= 0 && repeat > 1) {
      throw new UsageException("--kill-store-at runs once: it cannot be combined with --repeat");
    }
    if (soakMinutesGiven && soakRate < 0) {
      throw new UsageException("--soak-minutes needs --soak <rate>");
    }
    if (soakRate > 0) {
      if (smoke || repeat > 1 || killStoreAt >= 0 || stepsGiven || stepSecondsGiven) {
        throw new UsageException("--soak runs one long step of its own: not with --steps, --step-seconds, --smoke,"
            + " --repeat or --kill-store-at");
      }
      steps = List.of(soakRate);
      stepSeconds = soakMinutes * 60.0;
      reference = false;
    }
    return new BenchOptions(var, credentials != null ? credentials : var.resolve("sandbox-credentials.json"), kafka,
        mongo, steps, millis(stepSeconds), warmupRate, millis(warmupSeconds), warmupSettle, reference,
        referenceSteps != null ? referenceSteps : steps, millis(referenceWarmupSeconds), millis(graceSeconds),
        millis(timeoutSeconds), maxInFlight, connections, tokens, smoke,
        killStoreAt < 0 ? -1 : millis(killStoreAt), millis(storeDown), platformCommand, repeat,
        referenceOutcomeDelayMillis, soakRate);
  }

  /** Whether this run is a soak ({@code --soak}). */
  boolean soaks() {
    return soakRate > 0;
  }

  /** Whether {@code --reference-outcome-delay} was given (otherwise the running platform's is read). */
  boolean referenceOutcomeDelayGiven() {
    return referenceOutcomeDelayMillis >= 0;
  }

  /** Whether the store-kill probe runs. */
  boolean killsStore() {
    return killStoreAtMillis >= 0;
  }

  /** A number of seconds, with or without an {@code s}: {@code 60} or {@code 60s}. */
  private static double seconds(String text, String option) {
    return number(text.endsWith("s") ? text.substring(0, text.length() - 1) : text, option);
  }

  private static long millis(double seconds) {
    return Math.round(seconds * 1000);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new UsageException(option + " needs a value");
    }
    return args[i];
  }

  private static List<Double> rates(String text) {
    try {
      List<Double> rates = Arrays.stream(text.split(",")).map(String::strip).map(Double::parseDouble).toList();
      if (rates.isEmpty() || rates.stream().anyMatch(r -> !(r > 0) || Double.isInfinite(r))) {
        throw new UsageException("rates must be positive: " + text);
      }
      return rates;
    } catch (NumberFormatException e) {
      throw new UsageException("not a list of rates: " + text);
    }
  }

  private static double number(String text, String option) {
    try {
      double value = Double.parseDouble(text);
      if (!Double.isFinite(value)) {
        throw new UsageException(option + " needs a finite number, not " + text);
      }
      if (value < 0) {
        throw new UsageException(option + " must not be negative");
      }
      return value;
    } catch (NumberFormatException e) {
      throw new UsageException(option + " needs a number, not " + text);
    }
  }

  private static double positive(String text, String option) {
    double value = number(text, option);
    if (value <= 0) {
      throw new UsageException(option + " must be positive");
    }
    return value;
  }

  /** A whole number from {@code min} to {@code max}: {@code 3}, not {@code 2.5}, {@code NaN} or {@code 1e12}. */
  static int whole(String text, String option, int min, int max) {
    double value = number(text, option);
    if (value != Math.rint(value) || value < min || value > max) {
      throw new UsageException(option + " takes a whole number from " + min + " to " + max + ", not " + text);
    }
    return (int) value;
  }

  /**
   * A duration in milliseconds, from seconds ({@code 3}, {@code 3s}, {@code 0.5}) or milliseconds ({@code 300ms}), at
   * most {@link #MAX_OUTCOME_DELAY_SECONDS}.
   */
  static long duration(String text, String option) {
    double seconds = text.endsWith("ms") ? number(text.substring(0, text.length() - 2), option) / 1000
        : seconds(text, option);
    if (seconds > MAX_OUTCOME_DELAY_SECONDS) {
      throw new UsageException(option + " is at most " + Report.rate(MAX_OUTCOME_DELAY_SECONDS) + " s, not " + text);
    }
    return millis(seconds);
  }

  /** A bad command line: the message (if any) and the usage are printed, exit status 2. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message, null, false, false);
    }
  }
}
