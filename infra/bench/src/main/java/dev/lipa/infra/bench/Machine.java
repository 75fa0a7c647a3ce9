package dev.lipa.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** One line about the machine the bench runs on (figures from different machines do not compare). */
final class Machine {

  private Machine() {
  }

  static String describe() {
    String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name");
    String memory = firstValue(Path.of("/proc/meminfo"), "MemTotal");
    return String.format(Locale.ROOT, "%d cores (%s), memory %s, %s %s, Java %s, load average %s",
        Runtime.getRuntime().availableProcessors(), cpu == null ? "cpu unknown" : cpu,
        memory == null ? "unknown" : memory, System.getProperty("os.name"), System.getProperty("os.version"),
        System.getProperty("java.version"), loadAverage());
  }

  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "unknown";
    }
  }

  private static String firstValue(Path file, String key) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (String line : lines) {
        if (line.startsWith(key)) {
          int colon = line.indexOf(':');
          return colon < 0 ? null : line.substring(colon + 1).strip();
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }
}
