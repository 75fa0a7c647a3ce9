package dev.lipa.infra.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The reference pipeline as a child process of the bench, with the bench's class path: its sandbox delay on its
 * command line, the secret it signs callbacks with in its environment (never on a command line others can read).
 */
final class ReferenceProcess implements AutoCloseable {
  private final Process process;
  private final String url;
  private final Duration outcomeDelay;
  private final byte[] signingKey;

  private ReferenceProcess(Process process, String url, Duration outcomeDelay, byte[] signingKey) {
    this.process = process;
    this.url = url;
    this.outcomeDelay = outcomeDelay;
    this.signingKey = signingKey;
  }

  static ReferenceProcess start(BenchOptions options, Duration outcomeDelay, String signingSecret)
      throws IOException, InterruptedException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    Path log = options.var().resolve("logs").resolve("bench-reference.log");
    Files.createDirectories(log.getParent());
    ProcessBuilder builder = new ProcessBuilder(java, "-Dlipa.component=bench-reference", "-Xss512k",
        "-XX:+UseSerialGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        ReferencePipeline.class.getName(), "--port", String.valueOf(port), "--mongo", options.mongo(),
        "--kafka", options.kafka(), "--outcome-delay-ms", String.valueOf(outcomeDelay.toMillis()))
        .redirectErrorStream(true);
    builder.environment().put(ReferencePipeline.SECRET_VARIABLE, signingSecret);
    Process process = builder.start();
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
    return new ReferenceProcess(process, url[0], outcomeDelay, WebhookSigning.key(signingSecret));
  }

  String url() {
    return url;
  }

  /** How long after its accept a reference payment gets its outcome. */
  Duration outcomeDelay() {
    return outcomeDelay;
  }

  /** The key its callbacks are signed with, for the receiver to check them. */
  byte[] signingKey() {
    return signingKey.clone();
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
