package dev.lipa.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the launcher's own bash functions ({@code ./platform}, sourced) against a var/ directory of a test's own. */
final class Launcher {

  /** The repository: the tests run in infra/launcher. */
  static final Path ROOT = Path.of("..", "..").toAbsolutePath().normalize();

  private Launcher() {
  }

  record Result(int exitCode, String output) {
  }

  /** Runs {@code script} after sourcing the launcher, with {@code LIPA_VAR=var} and {@code env} on top. */
  static Result run(Path var, Map<String, String> env, String script) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", "source ./platform\n" + script)
        .directory(ROOT.toFile())
        .redirectErrorStream(true);
    // nothing of the machine's own setup leaks in: an external store or a log setting of the developer's
    builder.environment().keySet().removeIf(name -> name.startsWith("LIPA_") || name.startsWith("LOGGING_")
        || name.equals("MONGODB_URI"));
    builder.environment().put("LIPA_VAR", var.toString());
    builder.environment().putAll(env);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("the launcher did not finish in 60 s:\n" + output);
    }
    return new Result(process.exitValue(), output);
  }

  /** The environment {@code launch} gives a component's JVM for its logging, as NAME to value. */
  static Map<String, String> logSettings(Path var, String component, String maxSize, int maxFiles)
      throws IOException, InterruptedException {
    Result result = run(var, Map.of("LIPA_LOG_MAX_SIZE", maxSize, "LIPA_LOG_MAX_FILES", String.valueOf(maxFiles)),
        "log_limits && log_settings " + component);
    if (result.exitCode() != 0) {
      throw new IllegalStateException("log_settings failed:\n" + result.output());
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (String line : result.output().split("\n")) {
      int equals = line.indexOf('=');
      if (equals > 0) {
        settings.put(line.substring(0, equals), line.substring(equals + 1));
      }
    }
    return settings;
  }
}
