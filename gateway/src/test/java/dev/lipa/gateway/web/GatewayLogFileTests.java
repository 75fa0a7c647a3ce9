package dev.lipa.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway's logging under ./platform: its own lines and the access log in var/logs/gateway.log only, rolled by
 * Spring Boot's policy with the launcher's settings; and on the console, as before, when no file is named. Each case
 * runs a JVM of its own ({@link LoggingProcess}), since logging is set up once per JVM.
 */
class GatewayLogFileTests {

  private static final Path LAUNCHER = Path.of("..", "platform").toAbsolutePath().normalize();
  private static final int MAX_FILES = 3;
  private static final int MAX_BYTES = 64 * 1024;

  @TempDir
  Path var;

  @Test
  void writesItsLinesAndTheAccessLogToItsFileOnlyRolledBySizeIntoABoundedNumberOfFiles() throws Exception {
    Map<String, String> settings = launcherLogSettings();
    int lines = 20_000; // with the gateway's own lines, about 3 MB: dozens of roll-overs

    Run run = runLoggingProcess(settings, lines);

    assertThat(run.exitCode()).as(run.output()).isZero();
    Path logs = var.resolve("logs");
    List<Path> files = files(logs);
    assertThat(files).allSatisfy(file -> assertThat(file.getFileName().toString())
        .matches("gateway\\.log(\\.\\d{4}-\\d{2}-\\d{2}\\.\\d+)?"));
    // a day's end during the test rolls one file more, smaller: allowed for, never more
    long days = files.stream().map(file -> file.getFileName().toString())
        .filter(name -> !name.equals("gateway.log")).map(name -> name.split("\\.")[2]).distinct().count();
    assertThat(files).as("the current file and the rolled ones").hasSize(MAX_FILES + (int) Math.max(0, days - 1));
    for (Path file : files) {
      assertThat(Files.size(file)).as(file + ": the size, give or take the line that rolled it")
          .isLessThanOrEqualTo(MAX_BYTES + 1024L);
    }
    // the log file is JSON lines (Spring Boot's structured format), each message whole inside its line
    String current = Files.readString(logs.resolve("gateway.log"));
    assertThat(current).contains(LoggingProcess.LAST_GATEWAY_LINE);
    assertThat(current.lines()).allSatisfy(line -> assertThat(line).startsWith("{\"@timestamp\":").endsWith("}"));
    String all = String.join("", files.stream().map(GatewayLogFileTests::read).toList());
    assertThat(all).as("the access log stays, in the same file").contains("access-line-" + (lines - 1))
        .contains(LoggingProcess.LAST_ACCESS_LINE)
        // the oldest lines are gone with the files rolled away (the message ends the JSON string)
        .doesNotContain("access-line-0\"");
    assertThat(run.output()).as("nothing on the console: a line is written once")
        .doesNotContain("access-line-", "gateway-line-", LoggingProcess.LAST_ACCESS_LINE)
        .doesNotContain(" WARN in ch.qos.logback", " ERROR in ch.qos.logback");
  }

  @Test
  void logsToTheConsoleAndCreatesNoFileWhenNoneIsNamed() throws Exception {
    Run run = runLoggingProcess(Map.of(), 20);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("access-line-19", LoggingProcess.LAST_ACCESS_LINE, "gateway-line-10",
        LoggingProcess.LAST_GATEWAY_LINE);
    try (Stream<Path> created = Files.walk(var)) {
      assertThat(created.filter(Files::isRegularFile)).as("files written").isEmpty();
    }
  }

  /** The environment ./platform gives the gateway's JVM for its logging (its function log_settings). */
  private Map<String, String> launcherLogSettings() throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("bash", "-c",
        "source \"$0\" && log_limits && log_settings gateway", LAUNCHER.toString())
        .redirectErrorStream(true);
    builder.environment().put("LIPA_VAR", var.toString());
    builder.environment().put("LIPA_LOG_MAX_SIZE", "64KB");
    builder.environment().put("LIPA_LOG_MAX_FILES", String.valueOf(MAX_FILES));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    Map<String, String> settings = new LinkedHashMap<>();
    output.lines().filter(line -> line.indexOf('=') > 0)
        .forEach(line -> settings.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1)));
    assertThat(settings).containsKeys("LOGGING_FILE_NAME", "LOGGING_CONSOLE_ENABLED");
    return settings;
  }

  private record Run(int exitCode, String output) {
  }

  private Run runLoggingProcess(Map<String, String> environment, int lines) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Path output = Files.createTempFile("gateway-logging", ".out");
    try {
      ProcessBuilder builder = new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1",
          "-cp", System.getProperty("java.class.path"), LoggingProcess.class.getName(), String.valueOf(lines))
          .directory(var.toFile())
          .redirectErrorStream(true)
          .redirectOutput(output.toFile());
      builder.environment().keySet().removeIf(name -> name.startsWith("LOGGING_"));
      builder.environment().putAll(environment);
      Process process = builder.start();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("the logging process did not end in 120 s:\n" + Files.readString(output));
      }
      return new Run(process.exitValue(), Files.readString(output));
    } finally {
      Files.deleteIfExists(output);
    }
  }

  private static List<Path> files(Path logs) throws IOException {
    try (Stream<Path> all = Files.list(logs)) {
      return all.sorted().toList();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
