package dev.lipa.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The services' image definition, checked statically (no base image can be pulled here): an unprivileged user, the
 * heap sized by the container's memory, and each image built with its port from ./platform's PORT_TABLE. */
class ImageDefinitionTests {

  private static final String DOCKERFILE = Repository.read(Repository.deploy().resolve("Dockerfile"));

  @Test
  void theImageRunsAsAnUnprivilegedNumericUser() {
    List<String> users = instructions("USER");

    // the last USER is the one the container runs as; numeric, so runAsNonRoot can check it
    assertThat(users).isNotEmpty();
    assertThat(users.getLast()).matches("[1-9][0-9]*:[1-9][0-9]*");
    assertThat(DOCKERFILE).contains("useradd --system --uid " + users.getLast().split(":")[0]);
  }

  @Test
  void theHeapIsAShareOfTheContainersMemoryNeverAFixedSize() {
    assertThat(DOCKERFILE).containsPattern("JAVA_TOOL_OPTIONS=\"[^\"]*-XX:MaxRAMPercentage=\\d+");
    assertThat(DOCKERFILE.lines().filter(l -> !l.startsWith("#"))).noneMatch(l -> l.contains("-Xmx"));
  }

  @Test
  void theImageExposesItsServicesPortAndChecksActuatorsReadiness() {
    assertThat(instructions("EXPOSE")).containsExactly("${PORT}");
    assertThat(DOCKERFILE).contains("PORT=${PORT}", "LIPA_BIND_ADDRESS=0.0.0.0");
    for (String service : Repository.SERVICES) {
      assertThat(DOCKERFILE).as(service).contains("GET " + Repository.probePaths(service).get("readiness") + " ");
    }
    assertThat(instructions("ENTRYPOINT")).containsExactly("[\"java\", \"-jar\", \"/app/application.jar\"]");
  }

  @Test
  void theBuildScriptBuildsEveryServiceWithItsPortFromThePortTable() {
    Tools.Result printed = Tools.run(Repository.root(), Map.of("REGISTRY", "registry.test/lipa", "TAG", "1.2.3"), 30,
        List.of("bash", "infra/deploy/build-images.sh", "--print"));
    assertThat(printed.status()).as(printed.output()).isZero();
    Map<String, String> built = new LinkedHashMap<>();
    Matcher build = Pattern.compile("build -f \\S+/infra/deploy/Dockerfile --build-arg SERVICE=(\\S+) "
        + "--build-arg PORT=(\\d+) --build-arg MANAGEMENT_PORT=(\\d+) "
        + "-t registry\\.test/lipa/lipa-(\\S+):1\\.2\\.3 ")
        .matcher(printed.output());
    while (build.find()) {
      assertThat(build.group(4)).isEqualTo(build.group(1));
      built.put(build.group(1), build.group(2) + " " + build.group(3));
    }
    // Actuator on the service's own port; the gateway's on its management port, never the public one
    Map<String, Integer> table = Repository.portTable();
    Map<String, String> expected = new LinkedHashMap<>();
    Repository.SERVICES.forEach(s -> expected.put(s, table.get(s) + " "
        + (s.equals("gateway") ? table.get("gateway-management") : table.get(s))));

    assertThat(built).containsExactlyInAnyOrderEntriesOf(expected);
    assertThat(DOCKERFILE).contains("MANAGEMENT_PORT=${MANAGEMENT_PORT:-${PORT}}", "/dev/tcp/127.0.0.1/$MANAGEMENT_PORT");
  }

  private static List<String> instructions(String name) {
    return DOCKERFILE.lines().filter(l -> l.startsWith(name + " ")).map(l -> l.substring(name.length() + 1).strip())
        .toList();
  }
}
