package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What ./platform up --live starts beside the sandbox and tells each process, with everything but the JVMs real: the
 * live environment's four services with their own ports, environment and class-data archive, the gateway told where
 * they are, the mode left for status and down.
 */
class LiveLaunchTests {

  @TempDir
  Path var;

  private Launcher.Result up(String flags, String more) throws Exception {
    Files.writeString(var.resolve("sandbox-credentials.json"), "{}");
    return Launcher.run(var, Map.of(), """
        find_java() { JAVA=true; JVM_COMMON=(); }
        needs_build() { return 1; }
        prepare_service() { :; }
        wait_for() { :; }
        launch() { printf 'launched %%s | %%s | %%s %%s\\n' "$1" "$*" "${COLLECTIONS_URI:-}" \\
          "${LIPA_CALLBACKS_ALLOW_PRIVATE_TARGETS:-}"; }
        cmd_up %s
        %s
        """.formatted(flags, more));
  }

  private static String launchLine(String output, String component) {
    return output.lines().filter(line -> line.startsWith("launched " + component + " |")).findFirst()
        .orElseThrow(() -> new AssertionError(component + " was not launched:\n" + output));
  }

  @Test
  void startsTheLiveEnvironmentsFourServicesBesideTheSandbox() throws Exception {
    Launcher.Result result = up("--live", "load_mode; printf 'live mode %s\\n' \"$LIVE\"");

    assertThat(result.exitCode()).as(result.output()).isZero();
    List<String> launched = result.output().lines().filter(line -> line.startsWith("launched "))
        .map(line -> line.substring("launched ".length(), line.indexOf(" |"))).toList();
    assertThat(launched).containsExactlyInAnyOrder("store", "kafka", "auth-service", "collections-service",
        "payouts-service", "checkout-service", "callback-dispatcher", "gateway", "collections-service-live",
        "payouts-service-live", "checkout-service-live", "callback-dispatcher-live");
    assertThat(result.output()).contains("live mode 1");
    assertThat(var.resolve("run/live")).exists();
  }

  @Test
  void aLiveServiceRunsInTheLiveEnvironmentOnItsOwnPortAndCallsTheLiveServices() throws Exception {
    String output = up("--live", "").output();

    String collections = launchLine(output, "collections-service-live");
    assertThat(collections).contains("-Dlipa.component=collections-service-live", "--server.port=8283",
        "--lipa.environment=live", "/collections-service/target/app-", "/collections-service.jar")
        .as("the live replica maps its build's archive, never writes one").doesNotContain("AutoCreateSharedArchive");
    assertThat(launchLine(output, "checkout-service-live"))
        .as("its calls to collections go to the live one, its callbacks are held to the SSRF guard")
        .endsWith("| http://127.0.0.1:8283 false");
    assertThat(launchLine(output, "collections-service")).doesNotContain("--lipa.environment=live")
        .endsWith("| http://127.0.0.1:8083 true");
  }

  @Test
  void theGatewayIsToldWhereTheLiveServicesAre() throws Exception {
    String gateway = launchLine(up("--live", "").output(), "gateway");

    assertThat(gateway).contains(
        "--lipa.gateway.live-upstreams.collections-service.uri=http://127.0.0.1:8283",
        "--lipa.gateway.live-upstreams.payouts-service.uri=http://127.0.0.1:8284",
        "--lipa.gateway.live-upstreams.checkout-service.uri=http://127.0.0.1:8282",
        "--lipa.gateway.live-upstreams.callback-dispatcher.uri=http://127.0.0.1:8285");
  }

  @Test
  void withoutLiveNothingOfTheLiveEnvironmentStarts() throws Exception {
    Launcher.Result result = up("", "");

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).doesNotContain("-live", "live-upstreams");
    assertThat(var.resolve("run/live")).doesNotExist();
  }

  @Test
  void aComponentIsKnownByItsExactNameOnly() throws Exception {
    // a pid file of collections-service naming a process of collections-service-live is not collections-service's
    Launcher.Result result = Launcher.run(var, Map.of(), """
        mkdir -p "$RUN"
        bash -c 'sleep 30; :' lipa.component=collections-service-live &
        other=$!
        bash -c 'sleep 30; :' lipa.component=collections-service &
        own=$!
        sleep 0.2
        printf '%s' "$other" >"$(pid_file collections-service)"
        printf 'other [%s]\\n' "$(running_pid collections-service)"
        printf '%s' "$own" >"$(pid_file collections-service)"
        printf 'own [%s]\\n' "$(running_pid collections-service)"
        printf 'service %s %s %s\\n' "$(service_of collections-service-live)" "$(service_of collections-service-2)" \\
          "$(replica_of collections-service-live)"
        pkill -P "$other"; pkill -P "$own"; wait || true
        """);

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("other []").containsPattern("own \\[[0-9]+\\]")
        .contains("service collections-service collections-service 1");
  }
}
