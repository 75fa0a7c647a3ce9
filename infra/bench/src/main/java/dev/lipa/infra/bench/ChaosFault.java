package dev.lipa.infra.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * One fault of {@code ./platform chaos}: what is done to which processes, and for how long. The times of the run are
 * filled in as it happens: injected, repaired (restarted or resumed), and the window's end found by
 * {@link ChaosTimeline}.
 */
final class ChaosFault {

  /** What the fault does. */
  enum Kind {
    /** SIGKILL every component, then {@code ./platform start} each after the hold. */
    KILL,
    /** SIGSTOP every component, SIGCONT after the hold. */
    PAUSE,
    /** Each component in turn: SIGTERM, then {@code ./platform start}, ready again before the next. */
    ROLLING_RESTART
  }

  final String name;
  final Kind kind;
  final List<String> components;
  final long holdMillis;
  long injectedAtMillis = -1;
  long repairedAtMillis = -1;
  String problem;

  ChaosFault(String name, Kind kind, List<String> components, long holdMillis) {
    this.name = name;
    this.kind = kind;
    this.components = List.copyOf(components);
    this.holdMillis = holdMillis;
  }

  /**
   * The faults of a run, in order, for the components that run: each broker killed in turn, one replica of every
   * service, one gateway and the whole callback dispatcher killed, a broker, a service replica and the store paused,
   * every broker killed at once, and a rolling restart of every service replica. {@code --short} keeps one of each
   * kind: one replica of collections-service and of the dispatcher killed at once (the second when there are two), a
   * broker paused, and a rolling restart of collections-service.
   */
  static List<ChaosFault> plan(ChaosOptions options, List<String> running) {
    List<ChaosFault> faults = new ArrayList<>();
    List<String> brokers = running.stream().filter(c -> c.equals("kafka") || c.startsWith("kafka-")).toList();
    List<String> services = running.stream().filter(c -> !brokers.contains(c) && !c.equals("store")).toList();
    long kill = options.killMillis();
    long pause = options.pauseMillis();
    if (options.shortRun()) {
      // one fault of each kind: the second replica of each replicated service killed at once (their restarts overlap,
      // and each is a JVM start of tens of seconds on a small CI machine: one after the other they cost CI minutes, not
      // safety), a broker paused for longer than its session (fenced, its partitions led elsewhere, then caught up),
      // and a rolling restart. A broker's own kill and restart, the whole dispatcher's death and the rest are the full
      // run's faults. The survivors take over: the other collections replica answers the killed one's pushes through
      // the overdue sweep, the other dispatcher replica its leased deliveries.
      List<String> killed = new ArrayList<>();
      Stream.of("collections-service", "callback-dispatcher").forEach(service -> services.stream()
          .filter(c -> serviceOf(c).equals(service)).sorted().reduce((first, second) -> second)
          .ifPresent(killed::add));
      faults.add(new ChaosFault("kill " + String.join(", ", killed), Kind.KILL, killed, kill));
      addIf(faults, running, new ChaosFault("pause broker kafka-3", Kind.PAUSE, List.of("kafka-3"), pause));
      faults.add(new ChaosFault("rolling restart of collections-service", Kind.ROLLING_RESTART,
          services.stream().filter(c -> c.startsWith("collections-service")).toList(), 0));
      faults.removeIf(f -> f.components.isEmpty());
      return only(faults, options.only());
    }
    for (String broker : brokers) {
      faults.add(new ChaosFault("kill broker " + broker, Kind.KILL, List.of(broker), kill));
    }
    for (String service : List.of("auth-service", "collections-service", "payouts-service", "checkout-service",
        "callback-dispatcher")) {
      addIf(faults, running, new ChaosFault("kill replica " + service + "-2", Kind.KILL, List.of(service + "-2"),
          kill));
    }
    addIf(faults, running, new ChaosFault("kill gateway gateway-2", Kind.KILL, List.of("gateway-2"), kill));
    faults.add(new ChaosFault("kill the callback dispatcher", Kind.KILL,
        services.stream().filter(c -> c.startsWith("callback-dispatcher")).toList(), kill));
    addIf(faults, running, new ChaosFault("pause broker kafka-2", Kind.PAUSE, List.of("kafka-2"), pause));
    addIf(faults, running, new ChaosFault("pause replica collections-service", Kind.PAUSE,
        List.of("collections-service"), pause));
    addIf(faults, running, new ChaosFault("pause the store", Kind.PAUSE, List.of("store"), pause));
    faults.add(new ChaosFault("kill every broker", Kind.KILL, brokers, options.allBrokersMillis()));
    // every replica of the services behind the gateways; the gateways themselves sit behind the merchants' load
    // balancer in a deployment, which this machine does not have (their own kill is a fault above)
    faults.add(new ChaosFault("rolling restart of every service", Kind.ROLLING_RESTART,
        services.stream().filter(c -> !c.startsWith("gateway")).toList(), 0));
    faults.removeIf(f -> f.components.isEmpty());
    return only(faults, options.only());
  }

  /**
   * The faults whose name contains one of the words ({@code --only}); all of them when there is none.
   *
   * @throws IllegalArgumentException when a word matches no planned fault (a typo would otherwise run nothing)
   */
  private static List<ChaosFault> only(List<ChaosFault> faults, List<String> words) {
    if (words.isEmpty()) {
      return faults;
    }
    for (String word : words) {
      if (faults.stream().noneMatch(f -> f.name.toLowerCase(Locale.ROOT).contains(word))) {
        throw new IllegalArgumentException("--only " + word + ": no planned fault's name contains it (planned: "
            + faults.stream().map(f -> f.name).toList() + ")");
      }
    }
    return faults.stream().filter(f -> words.stream().anyMatch(f.name.toLowerCase(Locale.ROOT)::contains)).toList();
  }

  private static void addIf(List<ChaosFault> faults, List<String> running, ChaosFault fault) {
    if (running.containsAll(fault.components)) {
      faults.add(fault);
    }
  }

  private static String serviceOf(String component) {
    return component.replaceFirst("-2$", "");
  }

  boolean allBrokers() {
    return kind == Kind.KILL && components.size() > 1 && components.stream().allMatch(c -> c.startsWith("kafka"));
  }
}
