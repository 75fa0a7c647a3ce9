package dev.lipa.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The ports {@code ./platform} declares in its PORT_TABLE, read from the script itself. */
final class Ports {

  private Ports() {
  }

  /** One row of the table: the listener, the environment variable that moves it, its default. */
  record Port(String listener, String variable, int defaultPort) {
  }

  static List<Port> declared() {
    try {
      Path var = Files.createTempDirectory("lipa-ports");
      Launcher.Result result = Launcher.run(var, Map.of(), "printf '%s\\n' \"${PORT_TABLE[@]}\"");
      if (result.exitCode() != 0) {
        throw new IllegalStateException("could not read the port table:\n" + result.output());
      }
      List<Port> ports = new ArrayList<>();
      for (String line : result.output().strip().split("\n")) {
        String[] fields = line.strip().split("\\s+");
        ports.add(new Port(fields[0], fields[1], Integer.parseInt(fields[2])));
      }
      return List.copyOf(ports);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
