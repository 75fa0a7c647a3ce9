package dev.lipa.infra.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** The repository's own declarations the deployment files must agree with: ./platform's PORT_TABLE, topics.yaml,
 * and each service's application.yml. */
final class Repository {

  /** The gateway and the five services, as ./platform's SERVICES names them. */
  static final List<String> SERVICES = List.of("gateway", "auth-service", "checkout-service", "collections-service",
      "payouts-service", "callback-dispatcher");

  private static final Pattern PORT_ROW = Pattern.compile("^\\s*\"(\\S+)\\s+(\\S+)\\s+(\\d+)\"\\s*$");

  private Repository() {
  }

  static Path root() {
    return Path.of(System.getProperty("lipa.root", "../..")).toAbsolutePath().normalize();
  }

  static Path deploy() {
    return root().resolve("infra/deploy");
  }

  static Path chart() {
    return deploy().resolve("helm/lipa");
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** ./platform's PORT_TABLE: listener name to its default port, in the table's order. */
  static Map<String, Integer> portTable() {
    Map<String, Integer> ports = new LinkedHashMap<>();
    boolean inTable = false;
    for (String line : read(root().resolve("platform")).split("\n")) {
      if (line.startsWith("PORT_TABLE=(")) {
        inTable = true;
      } else if (inTable && line.startsWith(")")) {
        break;
      } else if (inTable) {
        Matcher row = PORT_ROW.matcher(line);
        if (row.matches()) {
          ports.put(row.group(1), Integer.valueOf(row.group(3)));
        }
      }
    }
    if (!ports.keySet().containsAll(SERVICES)) {
      throw new IllegalStateException("./platform's PORT_TABLE does not name every service: " + ports);
    }
    return ports;
  }

  static Map<String, Object> yaml(String text) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    return new Yaml(options).load(text);
  }

  static List<Map<String, Object>> yamlDocuments(String text) {
    List<Map<String, Object>> documents = new ArrayList<>();
    for (Object document : new Yaml().loadAll(text)) {
      if (document instanceof Map<?, ?> map) {
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) map;
        documents.add(object);
      }
    }
    return documents;
  }

  /** A service's application.yml. */
  static Map<String, Object> applicationYml(String service) {
    return yaml(read(root().resolve(service).resolve("src/main/resources/application.yml")));
  }

  /** The value at a dotted path of nested maps, or null. */
  static Object at(Object node, String path) {
    Object current = node;
    for (String key : path.split("\\.")) {
      if (!(current instanceof Map<?, ?> map)) {
        return null;
      }
      current = map.get(key);
    }
    return current;
  }

  /** The Actuator probe paths a service really serves: the management base path (default /actuator) with health's
   * liveness and readiness groups, which exist only when management.endpoint.health.probes.enabled is true (Spring
   * Boot adds them by itself only on Kubernetes); null when the probes are not enabled or health is not exposed. */
  static Map<String, String> probePaths(String service) {
    Map<String, Object> yml = applicationYml(service);
    if (!Boolean.TRUE.equals(at(yml, "management.endpoint.health.probes.enabled"))) {
      return null;
    }
    Object exposed = at(yml, "management.endpoints.web.exposure.include");
    if (exposed == null || !String.valueOf(exposed).matches("(^|.*[ ,])(health|\\*)([ ,].*|$)")) {
      return null;
    }
    Object basePath = at(yml, "management.endpoints.web.base-path");
    String base = basePath == null ? "/actuator" : String.valueOf(basePath);
    return Map.of("liveness", base + "/health/liveness", "readiness", base + "/health/readiness");
  }

  /** The port a service listens on by default in its application.yml (server.port: ${PORT:n}). */
  static int applicationDefaultPort(String service) {
    String port = String.valueOf(at(applicationYml(service), "server.port"));
    Matcher m = Pattern.compile("\\$\\{PORT:(\\d+)}").matcher(port);
    if (!m.matches()) {
      throw new IllegalStateException(service + "'s server.port is not ${PORT:n}: " + port);
    }
    return Integer.parseInt(m.group(1));
  }

  /** Whether a service moves its management endpoints to a port of their own. */
  static Object managementPort(String service) {
    return at(applicationYml(service), "management.server.port");
  }

  /** topics.yaml, the one declaration of topics. */
  static Map<String, Object> topicsFile() {
    return yaml(read(chart().resolve("topics.yaml")));
  }
}
