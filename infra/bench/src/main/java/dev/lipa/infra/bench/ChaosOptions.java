package dev.lipa.infra.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The options of {@code ./platform chaos}; see {@link #USAGE}. */
record ChaosOptions(
    Path var,
    String mongo,
    Path platformCommand,
    List<String> gateways,
    double rate,
    boolean shortRun,
    long killMillis,
    long pauseMillis,
    long allBrokersMillis,
    long calmMillis,
    long warmupMillis,
    long graceMillis,
    long timeoutMillis,
    int connections,
    List<Double> sustainRates,
    long stepMillis,
    List<String> only) {

  static final String USAGE = """
      usage: ./platform chaos [options]   (against the running local cluster: ./platform up --cluster first)
        --rate 25                 STK pushes and payouts per second in all, half each, spread over the gateways
                                  (open model); meant to be half of the rate --sustain measures (on 2 cores the
                                  whole cluster sustains 50/s of this mix: docs/operations.md, "What each fault costs")
        --short                   CI's version: one fault of each kind (a replica of collections-service and of
                                  the dispatcher killed at once, a broker paused, a rolling restart of
                                  collections-service)
        --kill-seconds 20         how long a killed process stays down before ./platform start starts it again
        --pause-seconds 40        how long a paused process stays stopped (longer than a lease: 30 s)
        --all-brokers-seconds 60  how long every broker stays down in the all-brokers fault
        --calm-seconds 20         steady load before the first fault, between faults and after the last
        --warmup-seconds 60       load before anything is measured (the JIT compiles the hot paths): its answers
                                  count in no figure and its payments are not reconciled
        --grace-seconds 180       how long to wait for the last callbacks and final states before reconciling
        --timeout-seconds 30      a request not answered by then counts as failed
        --connections 64          keep-alive connections per gateway and kind of request
        --sustain 20,30,40,50     no fault: measure the rate of this mix the cluster sustains instead, one step per
                                  rate after the warm-up (every request accepted, p99 < 1 s, every callback within
                                  30 s of the step's end); the chaos run's --rate is meant to be half of it
        --step-seconds 60         how long each --sustain step offers its rate
        --only rolling,store      only the planned faults whose name contains one of these words (case ignored),
                                  e.g. to repeat one fault of the long run; a word that matches none is an error
        --var <dir> --mongo <uri> --platform <script> --gateways <url,url>   (./platform passes these)
      Exit status 1 when (--sustain) no rate was sustained, or when an acknowledged payment was lost, a callback is missing or came twice as new ones, a
      payment has no final state, a ledger account differs from the sum of its movements, or a request failed
      outside a fault's window.
      """;

  /** A usage error (a null message: --help). */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  static ChaosOptions parse(String[] args) throws UsageException {
    Path var = null;
    String mongo = null;
    Path platform = null;
    List<String> gateways = List.of();
    double rate = 25;
    boolean shortRun = false;
    long kill = 20;
    long pause = 40;
    long allBrokers = 60;
    long calm = 20;
    long warmup = 60;
    long grace = 180;
    long timeout = 30;
    int connections = 64;
    List<Double> sustain = List.of();
    long step = 60;
    List<String> only = List.of();
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (option.equals("--help") || option.equals("-h")) {
        throw new UsageException(null);
      }
      if (option.equals("--short")) {
        shortRun = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new UsageException(option + " needs a value");
      }
      String value = args[++i];
      switch (option) {
        case "--var" -> var = Path.of(value);
        case "--mongo" -> mongo = value;
        case "--platform" -> platform = Path.of(value);
        case "--gateways" -> gateways = Arrays.stream(value.split(",")).map(String::strip)
            .filter(s -> !s.isEmpty()).toList();
        case "--rate" -> rate = number(option, value, 1, 5000);
        case "--kill-seconds" -> kill = (long) number(option, value, 1, 600);
        case "--pause-seconds" -> pause = (long) number(option, value, 1, 600);
        case "--all-brokers-seconds" -> allBrokers = (long) number(option, value, 1, 600);
        case "--calm-seconds" -> calm = (long) number(option, value, 5, 600);
        case "--warmup-seconds" -> warmup = (long) number(option, value, 0, 1800);
        case "--grace-seconds" -> grace = (long) number(option, value, 10, 3600);
        case "--timeout-seconds" -> timeout = (long) number(option, value, 1, 120);
        case "--connections" -> connections = (int) number(option, value, 1, 1024);
        case "--sustain" -> sustain = rates(option, value);
        case "--step-seconds" -> step = (long) number(option, value, 10, 1800);
        case "--only" -> only = words(option, value);
        default -> throw new UsageException("unknown option " + option);
      }
    }
    if (var == null || mongo == null || platform == null || gateways.isEmpty()) {
      throw new UsageException("--var, --mongo, --platform and --gateways are required (./platform chaos passes them)");
    }
    return new ChaosOptions(var, mongo, platform, gateways, rate, shortRun, kill * 1000, pause * 1000,
        allBrokers * 1000, calm * 1000, warmup * 1000, grace * 1000, timeout * 1000, connections, sustain,
        step * 1000, only);
  }

  /** At most 20 non-empty words of at most 40 characters, lower-cased. */
  private static List<String> words(String option, String value) throws UsageException {
    List<String> words = new java.util.ArrayList<>();
    for (String part : listOfAtMost20(option, value, "words")) {
      String word = part.toLowerCase(java.util.Locale.ROOT);
      if (word.isEmpty() || word.length() > 40) {
        throw new UsageException(option + " " + value + ": expected words of 1 to 40 characters, separated by commas");
      }
      words.add(word);
    }
    return List.copyOf(words);
  }

  /** At most 20 rates, each from 1 to 5000 per second, in the order given. */
  private static List<Double> rates(String option, String value) throws UsageException {
    List<Double> rates = new java.util.ArrayList<>();
    for (String part : listOfAtMost20(option, value, "rates")) {
      rates.add(number(option, part, 1, 5000));
    }
    return List.copyOf(rates);
  }

  /** The comma-separated parts of a value, stripped (empty ones kept, for the caller to refuse). */
  private static List<String> listOfAtMost20(String option, String value, String what) throws UsageException {
    String[] parts = value.split(",", -1);
    if (parts.length > 20) {
      throw new UsageException(option + ": at most 20 " + what);
    }
    return Arrays.stream(parts).map(String::strip).toList();
  }

  private static double number(String option, String value, double min, double max) throws UsageException {
    double n;
    try {
      n = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new UsageException(option + " " + value + ": expected a number");
    }
    if (!(n >= min && n <= max)) {
      throw new UsageException(option + " " + value + ": expected a number from " + (long) min + " to " + (long) max);
    }
    return n;
  }
}
