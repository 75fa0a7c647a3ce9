package dev.lipa.infra.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The store-kill probe of {@code ./platform bench} ({@code --kill-store-at}, {@code --store-down}): SIGKILLs the
 * embedded store (the pid in {@code var/run/store.pid}) while the load goes on, starts it again with
 * {@code ./platform up} after the pause (which starts only what is not running), and counts the platform's answers by
 * outcome from the kill until the first 201 after the restart. The bench's reconciliation then says whether any
 * accepted payment was lost.
 */
final class StoreKill implements OpenLoad.Outcomes {

  private final BenchOptions options;
  private final Map<String, LongAdder> duringOutage = new ConcurrentHashMap<>();
  private volatile long killedAtMillis = -1;
  private volatile long restartStartedAtMillis = -1;
  private volatile long restartedAtMillis = -1;
  private volatile long recoveredAtMillis = -1;
  private volatile long killedPid = -1;
  private volatile String killedCommand;
  private volatile String restartedCommand;
  private volatile String problem;
  private long loadStartedAtMillis;
  private Thread thread;

  StoreKill(BenchOptions options) {
    this.options = options;
  }

  /** Schedules the kill {@code --kill-store-at} after now (the first step's start). */
  void startCountingFrom(long nowMillis) {
    loadStartedAtMillis = nowMillis;
    thread = Thread.ofPlatform().daemon().name("bench-store-kill").start(this::killAndRestart);
  }

  @Override
  public void answered(String outcome, long atMillis, long dueMillis, long micros) {
    long killed = killedAtMillis;
    if (killed < 0 || atMillis < killed || recoveredAtMillis >= 0) {
      return;
    }
    if (outcome.equals("201") && restartStartedAtMillis >= 0 && atMillis >= restartStartedAtMillis) {
      recoveredAtMillis = atMillis; // the first 201 after the store came back ends the outage (it is not counted)
      return;
    }
    duringOutage.computeIfAbsent(outcome, o -> new LongAdder()).increment();
  }

  /** Whether the platform answered 500 (or any other 5xx but 503) during the outage. */
  long serverErrors() {
    return duringOutage.entrySet().stream()
        .filter(e -> e.getKey().startsWith("HTTP 5") && !e.getKey().equals("HTTP 503"))
        .mapToLong(e -> e.getValue().sum()).sum();
  }

  /** Waits for the restart to finish (the steps may end first). */
  void awaitRestart() throws InterruptedException {
    if (thread != null) {
      thread.join(TimeUnit.MINUTES.toMillis(15));
    }
  }

  void print() {
    Report.say("");
    Report.say("== store-kill probe (--kill-store-at %.0f s --store-down %.0f s)", options.killStoreAtMillis() / 1000.0,
        options.storeDownMillis() / 1000.0);
    if (problem != null) {
      Report.say("  PROBLEM: %s", problem);
    }
    if (killedAtMillis < 0) {
      Report.say("  the store was not killed (the steps ended before --kill-store-at?)");
      return;
    }
    Report.say("  store pid %d killed (SIGKILL) %.1f s after the first step started", killedPid,
        (killedAtMillis - loadStartedAtMillis) / 1000.0);
    if (restartedAtMillis >= 0) {
      Report.say("  ./platform up started it again %.1f s after the kill and returned %.1f s later (log: %s)",
          (restartStartedAtMillis - killedAtMillis) / 1000.0, (restartedAtMillis - restartStartedAtMillis) / 1000.0,
          restartLog());
    }
    if (killedCommand != null && restartedCommand != null && !killedCommand.equals(restartedCommand)) {
      Report.say("  NOTE: the store came back with another command line (run the bench with up's environment):");
      Report.say("    before: %s", killedCommand);
      Report.say("    after:  %s", restartedCommand);
    }
    Report.say(recoveredAtMillis >= 0
        ? String.format(java.util.Locale.ROOT, "  first 201 after the restart: %.1f s after the kill",
            (recoveredAtMillis - killedAtMillis) / 1000.0)
        : "  no 201 after the restart while the steps ran");
    StringBuilder counts = new StringBuilder();
    new TreeMap<>(duringOutage).forEach((outcome, n) -> counts.append(counts.isEmpty() ? "" : ", ")
        .append(outcome).append(' ').append(n.sum()));
    Report.say("  answers from the kill to the first 201 after the restart: %s",
        counts.isEmpty() ? "none" : counts.toString());
    Report.say("  5xx other than 503 during the outage: %d (must be 0)", serverErrors());
  }

  private void killAndRestart() {
    try {
      long wait = loadStartedAtMillis + options.killStoreAtMillis() - System.currentTimeMillis();
      if (wait > 0) {
        Thread.sleep(wait);
      }
      Path pidFile = options.var().resolve("run").resolve("store.pid");
      long pid = Long.parseLong(Files.readString(pidFile).strip());
      Optional<ProcessHandle> store = ProcessHandle.of(pid)
          .filter(p -> commandLine(pid).contains("-Dlipa.component=store"));
      if (store.isEmpty()) {
        problem = "no running store at pid " + pid + " (" + pidFile + "); is the store external (MONGODB_URI)?";
        return;
      }
      killedCommand = commandLine(pid);
      killedPid = pid;
      store.get().destroyForcibly();
      killedAtMillis = System.currentTimeMillis();
      Report.say("  [store-kill] store pid %d killed at %.1f s; starting it again in %.0f s", pid,
          (killedAtMillis - loadStartedAtMillis) / 1000.0, options.storeDownMillis() / 1000.0);
      store.get().onExit().get(30, TimeUnit.SECONDS);
      Thread.sleep(Math.max(0, killedAtMillis + options.storeDownMillis() - System.currentTimeMillis()));
      restartStartedAtMillis = System.currentTimeMillis();
      ProcessBuilder up = new ProcessBuilder(options.platformCommand().toString(), "up")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(restartLog().toFile()));
      up.environment().put("LIPA_SKIP_BUILD", "1");
      up.environment().put("LIPA_VAR", options.var().toAbsolutePath().toString());
      int status = up.start().waitFor();
      restartedAtMillis = System.currentTimeMillis();
      if (status != 0) {
        problem = "./platform up exited with " + status + "; see " + restartLog();
      }
      long newPid = Long.parseLong(Files.readString(pidFile).strip());
      restartedCommand = commandLine(newPid);
      Report.say("  [store-kill] ./platform up returned %d after %.1f s; store pid %d", status,
          (restartedAtMillis - restartStartedAtMillis) / 1000.0, newPid);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      problem = "the store-kill probe failed: " + e;
    }
  }

  private Path restartLog() {
    return options.var().resolve("logs").resolve("bench-store-restart.log");
  }

  /** The process's command line, its arguments separated by spaces ({@code /proc/<pid>/cmdline}). */
  private static String commandLine(long pid) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ').strip();
    } catch (IOException e) {
      return "";
    }
  }
}
