package dev.lipa.infra.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sandbox delay the running platform's STK rail uses ({@code lipa.collections.sandbox.outcome-delay}), read from
 * collections-service's own process, so that the reference payment waits as long as the platform's payments do. Spring
 * takes it, first found first, from a command-line argument or system property, then the environment variable
 * {@code LIPA_COLLECTIONS_SANDBOX_OUTCOMEDELAY}, then {@code SANDBOX_OUTCOME_DELAY} (application.yml's placeholder),
 * else 3 s; this reads {@code /proc/<pid>/cmdline} and {@code /proc/<pid>/environ} in that order. A setting made some
 * other way (SPRING_APPLICATION_JSON, a config file) is not seen: {@code --reference-outcome-delay} says it.
 */
final class SandboxDelay {

  static final String PROPERTY = "lipa.collections.sandbox.outcome-delay";
  static final List<String> VARIABLES = List.of("LIPA_COLLECTIONS_SANDBOX_OUTCOMEDELAY", "SANDBOX_OUTCOME_DELAY");
  /** Spring Boot's simple duration form: a whole number and an optional unit, milliseconds when it has none. */
  private static final Pattern SIMPLE = Pattern.compile("([+-]?\\d+)(ns|us|ms|s|m|h|d)?");

  /** The delay, and where it was read. */
  record Found(Duration delay, String source) {
  }

  private SandboxDelay() {
  }

  /** The delay of the process {@code pid}; 3 s (the default) when it says none or cannot be read. */
  static Found of(Long pid) {
    if (pid != null) {
      try {
        Optional<Found> found = fromProcess(read(pid, "cmdline"), read(pid, "environ"));
        if (found.isPresent()) {
          return found.get();
        }
      } catch (IOException e) {
        return new Found(ReferencePipeline.DEFAULT_OUTCOME_DELAY,
            "the default; collections-service's settings could not be read: " + e.getMessage());
      } catch (IllegalArgumentException | ArithmeticException e) {
        return new Found(ReferencePipeline.DEFAULT_OUTCOME_DELAY,
            "the default; collections-service's setting is not usable here: " + e.getMessage());
      }
    }
    return new Found(ReferencePipeline.DEFAULT_OUTCOME_DELAY, "the default");
  }

  /** From a process's NUL-separated command line and environment, in Spring's order; empty when neither sets it. */
  static Optional<Found> fromProcess(String cmdline, String environ) {
    for (String argument : cmdline.split("\0")) {
      for (String prefix : List.of("--" + PROPERTY + "=", "-D" + PROPERTY + "=")) {
        if (argument.startsWith(prefix)) {
          return Optional.of(new Found(parse(argument.substring(prefix.length())),
              prefix + "... of collections-service"));
        }
      }
    }
    String[] variables = environ.split("\0");
    for (String name : VARIABLES) {
      for (String variable : variables) {
        if (variable.startsWith(name + "=")) {
          return Optional.of(new Found(parse(variable.substring(name.length() + 1)),
              name + " of collections-service"));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * A duration as Spring Boot reads one: {@code 300ms}, {@code 3s}, {@code 500} (milliseconds), or ISO-8601
   * ({@code PT0.5S}).
   *
   * @throws IllegalArgumentException for anything else, a negative duration (the platform refuses it at start-up) or
   *     one longer than {@code --reference-outcome-delay} allows
   * @throws ArithmeticException for a number too large for a duration
   */
  static Duration parse(String text) {
    String value = text.strip();
    Duration duration;
    Matcher simple = SIMPLE.matcher(value.toLowerCase(Locale.ROOT));
    if (simple.matches()) {
      long amount = Long.parseLong(simple.group(1));
      String unit = simple.group(2) == null ? "ms" : simple.group(2);
      duration = switch (unit) {
        case "ns" -> Duration.ofNanos(amount);
        case "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1000L));
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        case "d" -> Duration.ofDays(amount);
        default -> Duration.ofMillis(amount);
      };
    } else {
      try {
        duration = Duration.parse(value);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("not a duration: " + text);
      }
    }
    if (duration.isNegative()) {
      throw new IllegalArgumentException("a negative sandbox delay: " + text);
    }
    if (duration.compareTo(Duration.ofSeconds((long) BenchOptions.MAX_OUTCOME_DELAY_SECONDS)) > 0) {
      throw new IllegalArgumentException("a sandbox delay longer than the bench waits for: " + text);
    }
    return duration;
  }

  private static String read(long pid, String file) throws IOException {
    return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), file)), StandardCharsets.UTF_8);
  }
}
