package dev.lipa.infra;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link EmbeddedStore} as a child JVM on a port and file of a test's own, started the way {@code ./platform up} starts
 * it (its own process, output to a log), so a test can kill it with SIGKILL and start it again on the same file.
 */
final class StoreProcess {

  private final Path file;
  private final Path log;
  private final int port;
  private final String shellPrefix;
  private final List<String> arguments = new ArrayList<>();
  private Process process;

  /**
   * @param shellPrefix a shell command run before the JVM in the same process ({@code ulimit -f 2048}), or empty
   */
  StoreProcess(Path file, Path log, String shellPrefix) {
    this.file = file;
    this.log = log;
    this.port = freePort();
    this.shellPrefix = shellPrefix;
  }

  /** Further arguments of {@link EmbeddedStore} ({@code --checkpoint-ms 20}) for every start. */
  StoreProcess with(String... more) {
    arguments.addAll(List.of(more));
    return this;
  }

  int port() {
    return port;
  }

  String uri() {
    // short timeouts: a test that kills the store wants its writers to notice within a second or two
    return "mongodb://127.0.0.1:" + port + "/?serverSelectionTimeoutMS=2000&connectTimeoutMS=1000"
        + "&socketTimeoutMS=5000&retryWrites=false&retryReads=false&maxPoolSize=32";
  }

  /** Starts the store and waits until it listens. */
  StoreProcess start() {
    List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        EmbeddedStore.class.getName(), "--port", Integer.toString(port), "--data", file.toString()));
    java.addAll(arguments);
    List<String> command = new ArrayList<>();
    if (!shellPrefix.isEmpty()) {
      command.addAll(List.of("bash", "-c", shellPrefix + " && exec \"$@\"", "store"));
    }
    command.addAll(java);
    try {
      long before = Files.exists(log) ? Files.size(log) : 0;
      process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
        if (!process.isAlive()) {
          throw new IllegalStateException("the store exited with " + process.exitValue() + ": "
              + Files.readString(log));
        }
        return Files.readString(log).substring((int) before).contains("store ready on");
      });
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SIGKILL, as {@code kill -9}: no shutdown hook, no clean close of the file. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** SIGTERM: the store closes its file cleanly. */
  void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
  }

  /** Waits for the process to end by itself and gives its exit status. */
  int awaitExit(Duration atMost) throws InterruptedException {
    if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("the store is still running after " + atMost);
    }
    return process.exitValue();
  }

  String log() throws IOException {
    return Files.readString(log);
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
