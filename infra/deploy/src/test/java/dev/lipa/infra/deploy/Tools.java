package dev.lipa.infra.deploy;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** The command-line tools the validation runs (node and npm, docker-compose, promtool; infra/contracts' Redocly and
 * AsyncAPI checks use it too, through this module's test jar): run with a deadline, and required in CI, where .ci/run
 * installs them; elsewhere a test without its tool is skipped, saying what to install. */
public final class Tools {

  /** What a command printed (stdout and stderr together) and its exit status. */
  public record Result(int status, String output) {
  }

  private Tools() {
  }

  public static boolean onPath(String tool) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  /** Skips the test when the tool is missing outside CI; fails it in CI (CI=true), which must validate. */
  public static void require(String tool, String install) {
    if (onPath(tool)) {
      return;
    }
    String message = tool + " is not installed (" + install + "): this validation did not run";
    if (System.getenv("CI") != null && !System.getenv("CI").isBlank()) {
      fail(message + "; .ci/run installs it");
    }
    Assumptions.abort(message);
  }

  public static Result run(Path dir, Map<String, String> environment, long timeoutSeconds, List<String> command) {
    try {
      Path output = Files.createTempFile("lipa-tool", ".out");
      ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(output.toFile());
      // a null value removes the variable from what the command inherits
      environment.forEach((name, value) -> {
        if (value == null) {
          builder.environment().remove(name);
        } else {
          builder.environment().put(name, value);
        }
      });
      Process process = builder.start();
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s");
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      Files.delete(output);
      return new Result(process.exitValue(), text);
    } catch (IOException e) {
      throw new IllegalStateException("could not run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
