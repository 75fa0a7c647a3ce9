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
    Path platformCommand) {

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
        --reference-steps <rates>        rates for the reference pipeline (default: the same steps)
        --reference-warmup-seconds 30    warm-up of the reference pipeline at the warm-up rate
        --no-reference                   skip the reference pipeline
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
                                         says what was lost or duplicated (make the steps outlast the outage)
        --store-down <seconds>           how long the store stays down (default 10)
        --mongo <uri> --kafka <host:port> --var <dir> --credentials <file> --platform <script>
                                         (./platform passes these)
      The store backend is the running platform's: LIPA_STORE_BACKEND=memory ./platform up starts the memory one.
      Exit status 1 when an accepted request did not get exactly one callback.
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
        case "--warmup-settle" -> warmupSettle = number(value(args, ++i, arg), arg);
        case "--reference-warmup-seconds" -> referenceWarmupSeconds = number(value(args, ++i, arg), arg);
        case "--no-reference" -> reference = false;
        case "--grace-seconds" -> {
          graceSeconds = number(value(args, ++i, arg), arg);
          graceGiven = true;
        }
        case "--timeout-seconds" -> timeoutSeconds = positive(value(args, ++i, arg), arg);
        case "--max-in-flight" -> maxInFlight = (int) positive(value(args, ++i, arg), arg);
        case "--connections" -> connections = (int) positive(value(args, ++i, arg), arg);
        case "--tokens" -> tokens = (int) positive(value(args, ++i, arg), arg);
        case "--smoke" -> smoke = true;
        case "--kill-store-at" -> killStoreAt = seconds(value(args, ++i, arg), arg);
        case "--store-down" -> storeDown = seconds(value(args, ++i, arg), arg);
        case "--platform" -> platformCommand = Path.of(value(args, ++i, arg));
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
    return new BenchOptions(var, credentials != null ? credentials : var.resolve("sandbox-credentials.json"), kafka,
        mongo, steps, millis(stepSeconds), warmupRate, millis(warmupSeconds), warmupSettle, reference,
        referenceSteps != null ? referenceSteps : steps, millis(referenceWarmupSeconds), millis(graceSeconds),
        millis(timeoutSeconds), maxInFlight, connections, tokens, smoke,
        killStoreAt < 0 ? -1 : millis(killStoreAt), millis(storeDown), platformCommand);
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
      if (rates.isEmpty() || rates.stream().anyMatch(r -> r <= 0)) {
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

  /** A bad command line: the message (if any) and the usage are printed, exit status 2. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message, null, false, false);
    }
  }
}
