package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every process ./platform starts logs to its own file under var/logs, rolled by size with a bounded number of files:
 * the store's and the broker's configuration (infra's logback.xml) under the launcher's real settings, and the
 * launcher giving those settings to every component it starts.
 */
class LogRotationTests {

  private static final int MAX_FILES = 3;
  private static final int MAX_BYTES = 64 * 1024;

  @Nested
  class SharedConfiguration {

    @TempDir
    Path var;

    @Test
    void rollsBySizeKeepingAtMostTheConfiguredNumberOfFilesWithTheNewestLinesInTheCurrentOne() throws Exception {
      Map<String, String> settings = Launcher.logSettings(var, "store", "64KB", MAX_FILES);
      Path logs = var.resolve("logs");
      int lines = 30_000; // about 3 MB: dozens of roll-overs

      Console console = Console.capture(() -> {
        LoggerContext context = configured(settings);
        Logger logger = context.getLogger("dev.lipa.store.test");
        for (int i = 0; i < lines; i++) {
          logger.info("line {} of the store's log, padded to a realistic length: {}", i, "x".repeat(40));
        }
        // errors only: dozens of roll-overs a second (never seen outside a test) start clean-ups that overlap and
        // warn when one deletes a file the other just deleted
        assertThat(new StatusUtil(context).getHighestLevel(0)).as("Logback's own errors").isLessThan(Status.ERROR);
        context.stop(); // waits for the clean-up of the last roll-over
      });

      List<Path> files = files(logs, "store.log");
      // a day's end during the test rolls one file more, smaller: allowed for, never more
      int days = datesOf(files).size();
      assertThat(files).as("the current file and the rolled ones").hasSize(MAX_FILES + Math.max(0, days - 1));
      assertThat(files).allSatisfy(file -> assertThat(file.getFileName().toString())
          .matches("store\\.log(\\.\\d{4}-\\d{2}-\\d{2}\\.\\d+)?"));
      for (Path file : files) {
        assertThat(Files.size(file)).as(file + ": the size, give or take the line that rolled it")
            .isLessThanOrEqualTo(MAX_BYTES + 512L);
      }
      String current = Files.readString(logs.resolve("store.log"));
      assertThat(current).contains("line " + (lines - 1) + " of the store's log");
      assertThat(Files.readString(oldest(files))).doesNotContain("line 0 of the store's log");
      assertThat(console.text()).as("nothing on stdout or stderr: a line is written once").isEmpty();
    }

    @Test
    void logsToStderrAndCreatesNoFileWhenTheLauncherNamesNone() throws Exception {
      Console console = Console.capture(() -> {
        LoggerContext context = configured(Map.of());
        context.getLogger("dev.lipa.bench.test").warn("a line of the bench");
        context.stop();
      });

      assertThat(console.err()).contains("WARN  dev.lipa.bench.test - a line of the bench");
      assertThat(console.out()).as("stdout is the program's own output (the bench's report)").isEmpty();
      try (Stream<Path> created = Files.list(var)) {
        assertThat(created).isEmpty();
      }
    }

    /** infra's logback.xml, the one on the store's and the broker's classpath, read with these variables. */
    private static LoggerContext configured(Map<String, String> variables) throws JoranException {
      URL configuration = LogRotationTests.class.getResource("/logback.xml");
      assertThat(configuration).isNotNull();
      assertThat(configuration.toString()).contains("infra/launcher/target/classes");
      LoggerContext context = new LoggerContext();
      context.setMDCAdapter(new LogbackMDCAdapter());
      context.start();
      // context properties stand in for the environment the launcher exports (Logback reads both the same way)
      variables.forEach(context::putProperty);
      JoranConfigurator configurator = new JoranConfigurator();
      configurator.setContext(context);
      configurator.doConfigure(configuration);
      assertThat(new StatusUtil(context).getHighestLevel(0)).as("Logback's own warnings and errors")
          .isLessThan(Status.WARN);
      return context;
    }
  }

  @Nested
  class TheLauncher {

    @TempDir
    Path var;

    @Test
    void startsEveryComponentWithItsOwnRollingLogFileAndItsJvmOutputInItsOutFile() throws Exception {
      // each component's command is env: its .out file then shows the environment launch gave it
      Launcher.Result result = Launcher.run(var, Map.of("LIPA_LOG_MAX_SIZE", "64KB", "LIPA_LOG_MAX_FILES", "3"), """
          log_limits
          for c in "${COMPONENTS[@]}"; do launch "$c" env; done
          printf 'components: %s\\n' "${COMPONENTS[*]}"
          """);
      assertThat(result.exitCode()).as(result.output()).isZero();
      List<String> components = components(result.output());
      assertThat(components).contains("store", "kafka", "gateway").hasSize(8);

      Path logs = var.resolve("logs");
      for (String component : components) {
        long pid = Long.parseLong(Files.readString(var.resolve("run").resolve(component + ".pid")).strip());
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        Path out = logs.resolve(component + ".out");
        assertThat(Files.readAllLines(out)).as(component).contains(
            "LOGGING_FILE_NAME=" + logs.resolve(component + ".log"),
            "LOGGING_CONSOLE_ENABLED=false",
            "LOGGING_LOGBACK_ROLLINGPOLICY_MAXFILESIZE=" + MAX_BYTES,
            // two rolled files of a little over 64 KB fit under the cap, three never do
            "LOGGING_LOGBACK_ROLLINGPOLICY_TOTALSIZECAP=" + (2 * MAX_BYTES + MAX_BYTES / 2),
            "LOGGING_LOGBACK_ROLLINGPOLICY_FILENAMEPATTERN=" + logs.resolve(component + ".log") + ".%d{yyyy-MM-dd}.%i");
        assertThat(logs.resolve(component + ".log")).as("only the JVM's logging writes the log file").doesNotExist();
      }
    }

    @Test
    void startsEveryComponentThroughLaunch() throws Exception {
      Files.writeString(var.resolve("sandbox-credentials.json"), "{}");
      // everything but the launch itself is real: the secrets, the service command lines, the seeding's redirection
      Launcher.Result result = Launcher.run(var, Map.of(), """
          find_java() { JAVA=true; JVM_COMMON=(); }
          needs_build() { return 1; }
          kafka_config() { :; }
          prepare_service() { :; }
          wait_for() { :; }
          launch() { printf 'launched %s\\n' "$1"; }
          cmd_up
          printf 'components: %s\\n' "${COMPONENTS[*]}"
          """);

      assertThat(result.exitCode()).as(result.output()).isZero();
      List<String> launched = result.output().lines().filter(line -> line.startsWith("launched "))
          .map(line -> line.substring("launched ".length())).toList();
      assertThat(launched).containsExactlyInAnyOrderElementsOf(components(result.output()));
    }

    @Test
    void movesAnOutFileGrownPastTheSizeLimitAsideAtAStart() throws Exception {
      Path logs = Files.createDirectories(var.resolve("logs"));
      Files.writeString(logs.resolve("store.out"), "an old crash\n" + "x".repeat(MAX_BYTES));
      Files.writeString(logs.resolve("kafka.out"), "a small start line\n");

      Launcher.Result result = Launcher.run(var, Map.of("LIPA_LOG_MAX_SIZE", "64KB"), """
          log_limits
          launch store true
          launch kafka true
          """);

      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(Files.readString(logs.resolve("store.out.1"))).startsWith("an old crash");
      assertThat(logs.resolve("store.out")).satisfiesAnyOf(
          out -> assertThat(out).doesNotExist(), out -> assertThat(out).isEmptyFile());
      assertThat(Files.readString(logs.resolve("kafka.out"))).isEqualTo("a small start line\n");
      assertThat(logs.resolve("kafka.out.1")).doesNotExist();
    }

    @Test
    void refusesALogSizeOrFileCountItCannotUse() throws Exception {
      for (Map<String, String> bad : List.of(Map.of("LIPA_LOG_MAX_SIZE", "twenty"), Map.of("LIPA_LOG_MAX_SIZE", "100"),
          Map.of("LIPA_LOG_MAX_SIZE", "20TB"), Map.of("LIPA_LOG_MAX_FILES", "0"), Map.of("LIPA_LOG_MAX_FILES", "-2"),
          Map.of("LIPA_LOG_MAX_FILES", "5x"))) {
        Launcher.Result result = Launcher.run(var, bad, "log_limits && echo accepted");

        assertThat(result.exitCode()).as(bad.toString()).isEqualTo(1);
        assertThat(result.output()).as(bad.toString()).doesNotContain("accepted")
            .contains(bad.keySet().iterator().next());
      }
    }

    private static List<String> components(String output) {
      return output.lines().filter(line -> line.startsWith("components: ")).findFirst()
          .map(line -> List.of(line.substring("components: ".length()).split(" ")))
          .orElseThrow(() -> new AssertionError("no component list in:\n" + output));
    }
  }

  private static List<Path> files(Path logs, String name) throws IOException {
    try (Stream<Path> all = Files.list(logs)) {
      return all.filter(file -> file.getFileName().toString().startsWith(name)).sorted().toList();
    }
  }

  private static final Pattern ROLLED = Pattern.compile("\\.(\\d{4}-\\d{2}-\\d{2})\\.(\\d+)$");

  private static Set<String> datesOf(List<Path> files) {
    Set<String> dates = new TreeSet<>();
    for (Path file : files) {
      Matcher rolled = ROLLED.matcher(file.getFileName().toString());
      if (rolled.find()) {
        dates.add(rolled.group(1));
      }
    }
    return dates;
  }

  /** The rolled file with the lowest index of the earliest day: the oldest lines kept. */
  private static Path oldest(List<Path> files) {
    return files.stream().filter(file -> ROLLED.matcher(file.getFileName().toString()).find())
        .min((a, b) -> {
          Matcher left = ROLLED.matcher(a.getFileName().toString());
          Matcher right = ROLLED.matcher(b.getFileName().toString());
          left.find();
          right.find();
          int byDay = left.group(1).compareTo(right.group(1));
          return byDay != 0 ? byDay : Integer.compare(Integer.parseInt(left.group(2)), Integer.parseInt(right.group(2)));
        })
        .orElseThrow(() -> new AssertionError("no rolled file among " + files));
  }

  /** What a block of code wrote to System.out and System.err. */
  private record Console(String out, String err) {

    interface Block {
      void run() throws Exception;
    }

    String text() {
      return out + err;
    }

    static Console capture(Block block) throws Exception {
      PrintStream out = System.out;
      PrintStream err = System.err;
      ByteArrayOutputStream capturedOut = new ByteArrayOutputStream();
      ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
      System.setOut(new PrintStream(capturedOut, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
      try {
        block.run();
      } finally {
        System.setOut(out);
        System.setErr(err);
      }
      return new Console(capturedOut.toString(StandardCharsets.UTF_8), capturedErr.toString(StandardCharsets.UTF_8));
    }
  }
}
