package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every port of the local platform is declared once, in ./platform's PORT_TABLE: every use reads it, a variable moves
 * its port everywhere, a port that cannot work is refused before anything starts, and the README lists the same.
 */
class PortTableTests {

  @TempDir
  Path var;

  @Test
  void declaresEachListenerVariableAndPortOnceAndTheReadmeListsThemWithTheirDefaults() throws Exception {
    List<Ports.Port> ports = Ports.declared();

    assertThat(ports).extracting(Ports.Port::listener).doesNotHaveDuplicates()
        .contains("gateway", "auth-service", "checkout-service", "collections-service", "payouts-service",
            "callback-dispatcher", "store", "kafka", "kafka-controller");
    assertThat(ports).extracting(Ports.Port::variable).doesNotHaveDuplicates();
    assertThat(ports).extracting(Ports.Port::defaultPort).doesNotHaveDuplicates();

    String readme = Files.readString(Launcher.ROOT.resolve("README.md"));
    for (Ports.Port port : ports) {
      assertThat(readme).as("the README's row of " + port.variable())
          .contains("| `" + port.variable() + "` | `" + port.defaultPort() + "` |");
    }
    Set<String> documented = new TreeSet<>();
    Matcher variable = Pattern.compile("^\\| `([A-Z0-9_]+_PORT)` \\|", Pattern.MULTILINE).matcher(readme);
    while (variable.find()) {
      documented.add(variable.group(1));
    }
    assertThat(documented).as("port variables the README documents as the launcher's")
        .containsExactlyInAnyOrderElementsOf(ports.stream().map(Ports.Port::variable).toList());
  }

  @Test
  void writesNoPortNumberOutsideTheTable() throws Exception {
    String script = Files.readString(Launcher.ROOT.resolve("platform"));
    String outside = script.substring(0, script.indexOf("PORT_TABLE=("))
        + script.substring(script.indexOf(")", script.indexOf("PORT_TABLE=(")));
    for (Ports.Port port : Ports.declared()) {
      assertThat(outside).as("./platform outside its table").doesNotContainPattern("\\b" + port.defaultPort() + "\\b");
    }
  }

  @Test
  void aMovedPortReachesTheServicesTheBrokerAndTheCallbackGuard() throws Exception {
    Map<String, String> moved = Map.of("GATEWAY_PORT", "18080", "AUTH_PORT", "18081", "KAFKA_PORT", "19092",
        "KAFKA_CONTROLLER_PORT", "19093", "PAYOUTS_PORT", "18084", "STORE_PORT", "37017");

    Launcher.Result result = Launcher.run(var, moved, """
        JAVA=java; JVM_COMMON=(); MONGO_URI=mongodb://127.0.0.1:${PORT[store]}
        export_service_environment
        printf 'guard %s\\n' "$LIPA_CALLBACKS_PLATFORM_PORTS"
        printf 'auth %s\\n' "$AUTH_URI"
        printf 'payouts %s\\n' "$(service_args payouts-service | tr '\\n' ' ')"
        printf 'status %s %s\\n' "$(port_of gateway)" "$(port_of store)"
        """);

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output())
        .contains("guard 18080,18081,8082,8083,18084,8085,37017,19092,19093")
        .contains("auth http://127.0.0.1:18081")
        .contains("--server.port=18084", "--spring.kafka.bootstrap-servers=127.0.0.1:19092",
            "--lipa.security.jwks-uri=http://127.0.0.1:18081/.well-known/jwks.json",
            "--spring.mongodb.uri=mongodb://127.0.0.1:37017")
        .contains("status 18080 37017");
  }

  @Test
  void refusesAPortThatIsNotANumberOrIsAnotherListenersBeforeStartingAnything() throws Exception {
    Launcher.Result notANumber = Launcher.run(var, Map.of("STORE_PORT", "27o17"), "check_ports");
    Launcher.Result tooLarge = Launcher.run(var, Map.of("AUTH_PORT", "80810"), "check_ports");
    Launcher.Result taken = Launcher.run(var, Map.of("KAFKA_PORT", "8080"), "check_ports");
    Launcher.Result defaults = Launcher.run(var, Map.of(), "check_ports");

    assertThat(notANumber.exitCode()).isEqualTo(1);
    assertThat(notANumber.output()).contains("STORE_PORT=27o17: expected a port number from 1 to 65535");
    assertThat(tooLarge.exitCode()).isEqualTo(1);
    assertThat(tooLarge.output()).contains("AUTH_PORT=80810: expected a port number from 1 to 65535");
    assertThat(taken.exitCode()).isEqualTo(1);
    assertThat(taken.output()).contains("KAFKA_PORT=8080: that port is already another listener's");
    assertThat(defaults.exitCode()).as(defaults.output()).isZero();
  }
}
