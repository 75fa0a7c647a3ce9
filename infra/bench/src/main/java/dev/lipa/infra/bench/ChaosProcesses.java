package dev.lipa.infra.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The local cluster's processes as {@code ./platform chaos} acts on them: found by their pid files
 * ({@code var/run/<component>.pid}, the process's command line naming {@code -Dlipa.component=<component>}), killed
 * (SIGKILL), stopped gracefully (SIGTERM), paused and resumed (SIGSTOP, SIGCONT), and started again with
 * {@code ./platform start <component>}, which waits until it is ready (or {@code ./platform up --cluster}, which starts
 * whatever is not running).
 */
final class ChaosProcesses {

  private final Path var;
  private final Path platform;

  ChaosProcesses(Path var, Path platform) {
    this.var = var;
    this.platform = platform;
  }

  /** Every component of the run that is alive now, by its pid file, sorted by name. */
  List<String> running() throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.list(var.resolve("run"))) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".pid")).sorted().toList()) {
        String name = file.getFileName().toString().replaceFirst("\\.pid$", "");
        if (process(name).isPresent()) {
          names.add(name);
        }
      }
    }
    return names;
  }

  /** The live process of {@code component}, when its pid file names one that is really that component. */
  Optional<ProcessHandle> process(String component) {
    try {
      long pid = Long.parseLong(Files.readString(var.resolve("run").resolve(component + ".pid")).strip());
      String commandLine = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
          StandardCharsets.UTF_8);
      return commandLine.contains("-Dlipa.component=" + component + "\0")
          ? ProcessHandle.of(pid).filter(ProcessHandle::isAlive) : Optional.empty();
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** SIGKILL, then waits until the process is gone. */
  void kill(String component) throws Exception {
    ProcessHandle process = require(component);
    process.destroyForcibly();
    process.onExit().get(30, TimeUnit.SECONDS);
  }

  /** SIGTERM (a graceful stop: readiness first, then the drain), then waits at most two minutes for the exit. */
  void terminate(String component) throws Exception {
    ProcessHandle process = require(component);
    process.destroy();
    process.onExit().get(120, TimeUnit.SECONDS);
  }

  void pause(String component) throws Exception {
    signal(component, "STOP");
  }

  void resume(String component) throws Exception {
    signal(component, "CONT");
  }

  /** {@code ./platform start <component>}: starts it and waits until it is ready; fails when it did not start. */
  void start(String component) throws IOException, InterruptedException {
    int status = platform("start", component);
    if (status != 0) {
      throw new IOException("./platform start " + component + " exited with " + status + " (" + restartLog() + ")");
    }
  }

  /** Starts every one of {@code components} at once (two replicas start in about the time of one), ready each. */
  void startAll(List<String> components) throws Exception {
    List<Thread> starts = new ArrayList<>();
    List<Exception> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (String component : components) {
      starts.add(Thread.ofPlatform().name("chaos-start-" + component).start(() -> {
        try {
          start(component);
        } catch (Exception e) {
          failures.add(e);
        }
      }));
    }
    for (Thread start : starts) {
      start.join();
    }
    if (!failures.isEmpty()) {
      throw failures.getFirst();
    }
  }

  /** {@code ./platform up --cluster}: starts whatever is not running and waits until all is healthy; its exit status. */
  int startMissing() throws IOException, InterruptedException {
    return platform("up", "--cluster");
  }

  private int platform(String... command) throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(List.of(platform.toString()));
    line.addAll(List.of(command));
    ProcessBuilder up = new ProcessBuilder(line)
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(restartLog().toFile()));
    up.environment().put("LIPA_SKIP_BUILD", "1");
    up.environment().put("LIPA_VAR", var.toAbsolutePath().toString());
    return up.start().waitFor();
  }

  Path restartLog() {
    return var.resolve("logs").resolve("chaos-restarts.log");
  }

  private ProcessHandle require(String component) {
    return process(component).orElseThrow(() -> new IllegalStateException(component + " is not running"));
  }

  private void signal(String component, String signal) throws IOException, InterruptedException {
    long pid = require(component).pid();
    int status = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
    if (status != 0) {
      throw new IOException("kill -" + signal + " " + pid + " (" + component + ") exited with " + status);
    }
  }
}
