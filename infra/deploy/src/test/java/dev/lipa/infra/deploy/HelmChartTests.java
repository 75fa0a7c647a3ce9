package dev.lipa.infra.deploy;

import static dev.lipa.infra.deploy.Repository.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.lipa.common.kafka.DeadLetterTopics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Helm chart: it lints, and what it renders agrees with what the services and ./platform declare (ports, probe
 * paths, settings, topics), with the documented network flows and with the partitions consumers scale by. */
class HelmChartTests {

  private static RenderedChart chart;
  private static Map<String, Integer> ports;

  @BeforeAll
  static void render() throws java.io.IOException {
    chart = RenderedChart.render();
    // for a reader of the build: what the chart renders with its defaults
    java.nio.file.Files.writeString(java.nio.file.Path.of("target/lipa-rendered.yaml"), chart.yaml());
    ports = Repository.portTable();
  }

  @Test
  void lintsCleanInStrictModeWithItsDefaultValues() {
    LintResult lint = new Helm(Repository.chart()).lint().strict().call();

    assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
  }

  @Test
  void servicesListenOnThePortsOfThePlatformsPortTable() {
    assertThat(portMismatches(chart)).isEmpty();
    assertThat(chart.ofKind("Service")).extracting(s -> at(s, "metadata.name"))
        .containsExactlyInAnyOrderElementsOf(Repository.SERVICES);
    // the table and the services' own defaults agree, so a service started without PORT listens where the chart says
    for (String service : Repository.SERVICES) {
      assertThat(Repository.applicationDefaultPort(service)).as(service).isEqualTo(ports.get(service));
    }
  }

  @Test
  void servicesListenOnEveryAddressOfTheirPodNotOnlyLoopback() {
    // the reason: common's ServiceListeners binds a service to loopback unless LIPA_BIND_ADDRESS says otherwise, and
    // a kubelet's probe or another pod never reaches a pod's loopback
    assertThat(Repository.read(Repository.root().resolve(
        "common/src/main/java/dev/lipa/common/servlet/ServiceListeners.java"))).contains("lipa.bind-address:127.0.0.1");
    for (String service : Repository.SERVICES) {
      assertThat(configMap(service)).as(service).containsEntry("LIPA_BIND_ADDRESS", "0.0.0.0");
    }
  }

  @Test
  void callbacksMayReachNoneOfThePlatformsOwnPorts() {
    for (String service : Repository.SERVICES) {
      Set<String> forbidden = Set.of(((String) configMap(service).get("LIPA_CALLBACKS_PLATFORM_PORTS")).split(","));
      for (String listener : Repository.SERVICES) {
        assertThat(forbidden).as(service).contains(String.valueOf(ports.get(listener)));
      }
      assertThat(forbidden).as(service + ": Kafka's and MongoDB's ports").contains("9092", "27017");
    }
  }

  @Test
  void tracesAreExportedOnlyWhereACollectorIsNamedAndEveryPodLogsJson() {
    for (String service : Repository.SERVICES) {
      assertThat(configMap(service)).as(service).doesNotContainKey("LIPA_OTLP_ENDPOINT")
          .containsEntry("LIPA_TRACING_SAMPLING", "0.1").containsEntry("LOGGING_STRUCTURED_FORMAT_CONSOLE", "ecs");
    }

    RenderedChart named = RenderedChart.render(Map.of("tracing.otlpEndpoint",
        "http://otel-collector.observability:4318/v1/traces", "tracing.sampling", "0.25"));

    for (String service : Repository.SERVICES) {
      assertThat(map(at(named.get("ConfigMap", service + "-config"), "data"))).as(service)
          .containsEntry("LIPA_OTLP_ENDPOINT", "http://otel-collector.observability:4318/v1/traces")
          .containsEntry("LIPA_TRACING_SAMPLING", "0.25");
    }
  }

  @Test
  void aLiveReleaseRunsTheOperationalServicesLiveBehindAGatewayThatServesLiveOnly() {
    List<String> operational = List.of("checkout-service", "collections-service", "payouts-service",
        "callback-dispatcher");
    for (String service : Repository.SERVICES) {
      assertThat(configMap(service)).as("a sandbox release: " + service).doesNotContainKeys("LIPA_ENVIRONMENT",
          "LIPA_GATEWAY_ENVIRONMENTS", "LIVE_COLLECTIONS_URI");
    }

    RenderedChart live = RenderedChart.render(Map.of("environment", "live"));

    for (String service : operational) {
      assertThat(map(at(live.get("ConfigMap", service + "-config"), "data"))).as(service)
          .containsEntry("LIPA_ENVIRONMENT", "live");
    }
    assertThat(map(at(live.get("ConfigMap", "auth-service-config"), "data"))).as("auth serves both")
        .doesNotContainKey("LIPA_ENVIRONMENT");
    Map<String, Object> gateway = map(at(live.get("ConfigMap", "gateway-config"), "data"));
    assertThat(gateway).containsEntry("LIPA_GATEWAY_ENVIRONMENTS", "live")
        .containsEntry("LIVE_COLLECTIONS_URI", gateway.get("COLLECTIONS_URI"))
        .containsEntry("LIVE_PAYOUTS_URI", gateway.get("PAYOUTS_URI"))
        .containsEntry("LIVE_CHECKOUT_URI", gateway.get("CHECKOUT_URI"))
        .containsEntry("LIVE_DISPATCHER_URI", gateway.get("DISPATCHER_URI"));
  }

  @Test
  void aPortMovedAwayFromThePortTableIsCaught() {
    RenderedChart moved = RenderedChart.render(Map.of("services.payouts-service.port", 9084));

    assertThat(portMismatches(moved)).isNotEmpty().allMatch(m -> m.startsWith("payouts-service"));
  }

  @Test
  void probesAskActuatorsLivenessAndReadinessGroupsOnTheServicesOwnPort() {
    for (String service : Repository.SERVICES) {
      if (service.equals("gateway")) {
        continue; // its Actuator is on a port of its own: the next test
      }
      Map<String, String> paths = Repository.probePaths(service);
      assertThat(paths).as("%s exposes Actuator's probe groups (management.endpoint.health.probes.enabled)", service)
          .isNotNull();
      // no management.server.port: the probes and monitoring use the service's port
      assertThat(Repository.managementPort(service)).as(service).isNull();
      Map<String, Object> container = container(service);
      assertThat(at(container, "startupProbe.httpGet.path")).as(service).isEqualTo(paths.get("liveness"));
      assertThat(at(container, "livenessProbe.httpGet.path")).as(service).isEqualTo(paths.get("liveness"));
      assertThat(at(container, "readinessProbe.httpGet.path")).as(service).isEqualTo(paths.get("readiness"));
      for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
        assertThat(at(container, probe + ".httpGet.port")).as(service + " " + probe).isEqualTo("http");
      }
    }
  }

  @Test
  void theGatewaysProbesAndMetricsAreOnItsManagementPortNeverItsPublicOne() {
    Map<String, String> paths = Repository.probePaths("gateway");
    assertThat(paths).isNotNull();
    // the public port answers no /actuator path: the gateway's application.yml moves them to MANAGEMENT_PORT, whose
    // default is the port table's, and the chart sets the same
    assertThat(String.valueOf(Repository.managementPort("gateway")))
        .isEqualTo("${MANAGEMENT_PORT:" + ports.get("gateway-management") + "}");
    assertThat(configMap("gateway")).containsEntry("MANAGEMENT_PORT", String.valueOf(ports.get("gateway-management")));
    Map<String, Object> container = container("gateway");
    assertThat(RenderedChart.list(container, "ports")).extracting(p -> p.get("name") + ":" + p.get("containerPort"))
        .containsExactly("http:" + ports.get("gateway"), "management:" + ports.get("gateway-management"));
    assertThat(at(container, "startupProbe.httpGet.path")).isEqualTo(paths.get("liveness"));
    assertThat(at(container, "livenessProbe.httpGet.path")).isEqualTo(paths.get("liveness"));
    assertThat(at(container, "readinessProbe.httpGet.path")).isEqualTo(paths.get("readiness"));
    for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
      assertThat(at(container, probe + ".httpGet.port")).as(probe).isEqualTo("management");
    }
    // the Service (what the load balancer and other pods reach) carries only the public port
    assertThat(RenderedChart.list(chart.get("Service", "gateway"), "spec.ports")).extracting(p -> p.get("name"))
        .containsExactly("http");
    // and a callback may not reach it either
    for (String service : Repository.SERVICES) {
      assertThat(((String) configMap(service).get("LIPA_CALLBACKS_PLATFORM_PORTS")).split(",")).as(service)
          .contains(String.valueOf(ports.get("gateway-management")));
    }
  }

  @Test
  void topicsAreExactlyThoseOfTopicsYamlAndTheirDeadLetterTopics() {
    Map<String, Object> file = Repository.topicsFile();
    Map<String, Object> defaults = map(file.get("defaults"));
    Set<String> expected = new TreeSet<>();
    for (Map<String, Object> topic : topics(file)) {
      String name = (String) topic.get("name");
      expected.add(name);
      for (String group : groups(topic)) {
        expected.add(DeadLetterTopics.name(name, group));
      }
    }
    List<Map<String, Object>> rendered = chart.ofKind("KafkaTopic");

    assertThat(rendered).extracting(t -> (String) at(t, "spec.topicName")).doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(expected);
    for (Map<String, Object> t : rendered) {
      String name = (String) at(t, "spec.topicName");
      assertThat(at(t, "metadata.labels")).as(name).isInstanceOf(Map.class);
      assertThat(map(at(t, "metadata.labels"))).as(name).containsEntry("strimzi.io/cluster", "lipa-kafka");
      assertThat(at(t, "spec.partitions")).as(name).isEqualTo(defaults.get("partitions"));
      assertThat(at(t, "spec.replicas")).as(name).isEqualTo(defaults.get("replicationFactor"));
      Map<String, Object> config = map(at(t, "spec.config"));
      assertThat(config).as(name).containsEntry("min.insync.replicas", defaults.get("minInsyncReplicas"))
          .containsEntry("unclean.leader.election.enable", false);
    }
    Map<String, Object> organisations = map(at(chart.get("KafkaTopic", "payments.organisations.v1"), "spec.config"));
    assertThat(organisations).containsEntry("cleanup.policy", "compact").doesNotContainKey("retention.ms");
    Map<String, Object> deadLetters = map(at(chart.get("KafkaTopic",
        DeadLetterTopics.name("payments.collections.v1", "payouts-ledger")), "spec.config"));
    assertThat(deadLetters).containsEntry("cleanup.policy", "delete")
        .containsEntry("retention.ms", ((Number) defaults.get("deadLetterRetentionMs")).longValue());
  }

  @Test
  void aManagedKafkaGetsNoStrimziTopics() {
    RenderedChart managed = RenderedChart.render(Map.of("kafka.strimzi.enabled", false));

    assertThat(managed.ofKind("KafkaTopic")).isEmpty();
    assertThat(managed.ofKind("Deployment")).hasSize(Repository.SERVICES.size());
  }

  @Test
  void everyConsumerGroupOfTopicsYamlIsRunByExactlyOneService() {
    Map<String, Object> values = Repository.yaml(Repository.read(Repository.chart().resolve("values.yaml")));
    Map<String, String> owner = new LinkedHashMap<>();
    List<String> twice = new ArrayList<>();
    for (String service : Repository.SERVICES) {
      for (Object group : (List<?>) at(values, "services." + service + ".consumerGroups")) {
        if (owner.put((String) group, service) != null) {
          twice.add((String) group);
        }
      }
    }
    Set<String> declared = new HashSet<>();
    // a live group (-live) is run by the live environment's deployment of the service that runs its sandbox twin
    topics(Repository.topicsFile()).forEach(t -> groups(t).forEach(g -> declared.add(TopicsFileTests.sandboxTwin(g))));

    assertThat(twice).isEmpty();
    assertThat(owner.keySet()).containsExactlyInAnyOrderElementsOf(declared);
  }

  @Test
  void consumersAutoscaleToAtMostTheirTopicsPartitionsWhateverTheirMaxReplicas() {
    Map<String, Object> sets = new LinkedHashMap<>();
    Repository.SERVICES.forEach(s -> sets.put("services." + s + ".maxReplicas", 50));
    RenderedChart generous = RenderedChart.render(sets);
    Map<String, Object> values = Repository.yaml(Repository.read(Repository.chart().resolve("values.yaml")));
    Map<String, Object> file = Repository.topicsFile();
    int defaultPartitions = ((Number) at(file, "defaults.partitions")).intValue();

    for (String service : Repository.SERVICES) {
      List<?> ownGroups = (List<?>) at(values, "services." + service + ".consumerGroups");
      int cap = 50;
      for (Map<String, Object> topic : topics(file)) {
        if (groups(topic).stream().anyMatch(ownGroups::contains)) {
          Object partitions = topic.get("partitions");
          cap = Math.min(cap, partitions == null ? defaultPartitions : ((Number) partitions).intValue());
        }
      }
      Map<String, Object> hpa = generous.get("HorizontalPodAutoscaler", service);
      assertThat(at(hpa, "spec.maxReplicas")).as(service).isEqualTo(cap);
      assertThat(((Number) at(hpa, "spec.minReplicas")).intValue()).as(service).isLessThanOrEqualTo(cap);
      assertThat(at(hpa, "spec.scaleTargetRef.name")).isEqualTo(service);
    }
    assertThat(at(generous.get("HorizontalPodAutoscaler", "callback-dispatcher"), "spec.maxReplicas"))
        .isEqualTo(defaultPartitions);
    assertThat(at(generous.get("HorizontalPodAutoscaler", "gateway"), "spec.maxReplicas")).isEqualTo(50);
  }

  @Test
  void everyServiceHasADisruptionBudgetThatKeepsAllButOnePodUp() {
    for (String service : Repository.SERVICES) {
      Map<String, Object> pdb = chart.get("PodDisruptionBudget", service);
      assertThat(at(pdb, "spec.maxUnavailable")).as(service).isEqualTo(1);
      assertThat(map(at(pdb, "spec.selector.matchLabels")))
          .isEqualTo(map(at(chart.get("Deployment", service), "spec.selector.matchLabels")));
    }
  }

  @Test
  void networkPoliciesAllowExactlyTheDocumentedFlows() {
    Map<String, Object> deny = chart.get("NetworkPolicy", "lipa-default-deny");
    assertThat(map(at(deny, "spec.podSelector.matchLabels"))).containsOnly(Map.entry("app.kubernetes.io/instance", "lipa"));
    assertThat(RenderedChart.<String>strings(deny, "spec.policyTypes")).containsExactlyInAnyOrder("Ingress", "Egress");

    Map<String, Set<String>> expected = new LinkedHashMap<>();
    expected.put("gateway", Set.of("anyone", "monitoring"));
    expected.put("auth-service", Set.of("gateway", "every service", "monitoring"));
    expected.put("collections-service", Set.of("gateway", "checkout-service", "monitoring"));
    expected.put("payouts-service", Set.of("gateway", "monitoring"));
    expected.put("checkout-service", Set.of("gateway", "monitoring"));
    expected.put("callback-dispatcher", Set.of("gateway", "monitoring"));
    expected.forEach((service, peers) ->
        assertThat(ingressPeers(chart, service)).as(service + "'s ingress").isEqualTo(peers));
  }

  @Test
  void railCallbacksReachOnlyTheReceiverTheyAreConfiguredFor() {
    RenderedChart withRails = RenderedChart.render(
        Map.of("networkPolicy.railCallbacks.collections-service[0].ipBlock.cidr", "196.201.214.0/24"));

    assertThat(ingressPeers(withRails, "collections-service"))
        .containsExactlyInAnyOrder("gateway", "checkout-service", "monitoring", "196.201.214.0/24");
    assertThat(ingressPeers(withRails, "payouts-service")).containsExactlyInAnyOrder("gateway", "monitoring");
  }

  @Test
  void podsRunAsAnUnprivilegedUserWithTheHeapSizedByTheirMemoryLimit() {
    for (String service : Repository.SERVICES) {
      Map<String, Object> pod = map(at(chart.get("Deployment", service), "spec.template.spec"));
      Map<String, Object> container = container(service);
      assertThat(at(pod, "securityContext.runAsNonRoot")).as(service).isEqualTo(true);
      assertThat(((Number) at(pod, "securityContext.runAsUser")).intValue()).as(service).isPositive();
      assertThat(at(container, "securityContext.allowPrivilegeEscalation")).as(service).isEqualTo(false);
      assertThat(at(container, "securityContext.readOnlyRootFilesystem")).as(service).isEqualTo(true);
      assertThat(at(container, "resources.limits.memory")).as(service).isNotNull();
      assertThat(at(container, "resources.requests.cpu")).as(service).isNotNull();
      assertThat((String) configMap(service).get("JAVA_TOOL_OPTIONS")).as(service)
          .contains("-XX:MaxRAMPercentage=75").doesNotContain("-Xmx");
    }
  }

  @Test
  void everyVariableTheLocalPlatformExportsIsSetByAConfigMapOrTheSecret() {
    Set<String> exported = new TreeSet<>();
    Matcher export = Pattern.compile("\\bexport\\s+([^\\n]+)").matcher(exportServiceEnvironment());
    while (export.find()) {
      Matcher names = Pattern.compile("(?:^|\\s)([A-Z_][A-Z0-9_]*)=").matcher(export.group(1));
      while (names.find()) {
        exported.add(names.group(1));
      }
    }
    assertThat(exported).contains("AUTH_URI", "LIPA_CALLBACKS_PLATFORM_PORTS"); // the parse found the function

    for (String service : Repository.SERVICES) {
      Set<String> set = settingsOf(service);
      assertThat(set).as(service).containsAll(exported);
    }
  }

  @Test
  void everyVariableAServiceReadsWithoutASafeProductionDefaultIsSet() {
    // read with a default that is right in production too; a team sets them per service in services.<name>.env
    Set<String> tuning = Set.of("LIPA_AUTH_SIGNING_KEY_LEAD", "DISPATCHER_REQUEST_TIMEOUT", "DISPATCHER_RETRY_DELAYS",
        "DISPATCHER_INTAKE_CONCURRENCY", "DISPATCHER_SIGNING_ROTATION_WINDOW", "LIPA_DISPATCHER_SECRETS_KEY",
        "LIPA_CHECKOUT_SESSION_LIFETIME",
        // the hosted page's path: /checkout in a sandbox stack, /live/checkout in a live one (from lipa.environment)
        "LIPA_CHECKOUT_PAGE_PATH", "IDEMPOTENCY_RETENTION", "SANDBOX_OUTCOME_DELAY", "GATEWAY_CONNECT_TIMEOUT_MILLIS",
        "GATEWAY_RESPONSE_TIMEOUT_MILLIS",
        // the master keys come inline (LIPA_SECRETS_MASTER_KEYS) from the Secret instead of a file
        "LIPA_SECRETS_MASTER_KEY_FILE",
        // the gateway's own replica lists are the local cluster's (./platform up --cluster); in Kubernetes each
        // service's Service balances across its pods, so they stay empty and the gateway routes to *_URI
        "AUTH_INSTANCES", "CHECKOUT_INSTANCES", "COLLECTIONS_INSTANCES", "PAYOUTS_INSTANCES", "DISPATCHER_INSTANCES",
        "GATEWAY_HEALTH_CHECK_INTERVAL",
        // the live stack's addresses: empty in a sandbox release (the gateway serves the sandbox only), this release's
        // own services in a live one (environment: live, aLiveReleaseRuns...); replicas balance behind each Service
        "LIVE_CHECKOUT_URI", "LIVE_COLLECTIONS_URI", "LIVE_PAYOUTS_URI", "LIVE_DISPATCHER_URI",
        "LIVE_CHECKOUT_INSTANCES", "LIVE_COLLECTIONS_INSTANCES", "LIVE_PAYOUTS_INSTANCES", "LIVE_DISPATCHER_INSTANCES",
        // how long a stopping pod serves with its readiness down: 5 s, within terminationGracePeriodSeconds
        "LIPA_SHUTDOWN_DRAIN_DELAY");
    Pattern placeholder = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)(?::[^}]*)?}");
    for (String service : Repository.SERVICES) {
      Set<String> read = new TreeSet<>();
      Matcher m = placeholder.matcher(Repository.read(
          Repository.root().resolve(service).resolve("src/main/resources/application.yml")));
      while (m.find()) {
        read.add(m.group(1));
      }
      read.removeAll(tuning);
      assertThat(settingsOf(service)).as("%s reads %s", service, read).containsAll(read);
    }
  }

  // ------------------------------------------------------------------------------------------------ helpers

  /** What differs between the rendered Services, containers and PORT settings and ./platform's PORT_TABLE. */
  static List<String> portMismatches(RenderedChart rendered) {
    List<String> mismatches = new ArrayList<>();
    Map<String, Integer> table = Repository.portTable();
    for (String service : Repository.SERVICES) {
      Integer port = table.get(service);
      Object servicePort = at(RenderedChart.list(rendered.get("Service", service), "spec.ports").getFirst(), "port");
      Object containerPort = at(RenderedChart.list(
          RenderedChart.list(rendered.get("Deployment", service), "spec.template.spec.containers").getFirst(), "ports")
          .getFirst(), "containerPort");
      Object env = at(rendered.get("ConfigMap", service + "-config"), "data.PORT");
      if (!port.equals(servicePort)) {
        mismatches.add(service + ": Service port " + servicePort + ", PORT_TABLE " + port);
      }
      if (!port.equals(containerPort)) {
        mismatches.add(service + ": containerPort " + containerPort + ", PORT_TABLE " + port);
      }
      if (!String.valueOf(port).equals(env)) {
        mismatches.add(service + ": PORT setting " + env + ", PORT_TABLE " + port);
      }
    }
    return mismatches;
  }

  /** Who a service's ingress policy lets in, by name: a service of the release, every service, monitoring, anyone, or
   * an ipBlock's CIDR. Every rule must be on the service's own port (monitoring's on the gateway's management port). */
  private static Set<String> ingressPeers(RenderedChart rendered, String service) {
    Map<String, Object> policy = rendered.get("NetworkPolicy", service + "-ingress");
    assertThat(map(at(policy, "spec.podSelector.matchLabels"))).containsEntry("app.kubernetes.io/name", service);
    Set<String> peers = new HashSet<>();
    for (Map<String, Object> rule : RenderedChart.list(policy, "spec.ingress")) {
      List<Map<String, Object>> from = RenderedChart.list(rule, "from");
      // monitoring scrapes the management port: the gateway's own, every other service's port
      boolean monitoring = from.stream().anyMatch(peer -> peer.containsKey("namespaceSelector"));
      int port = monitoring && service.equals("gateway") ? ports.get("gateway-management") : ports.get(service);
      assertThat(RenderedChart.list(rule, "ports")).as(service)
          .containsExactly(Map.of("protocol", "TCP", "port", port));
      if (from.isEmpty()) {
        peers.add("anyone");
      }
      for (Map<String, Object> peer : from) {
        if (peer.containsKey("ipBlock")) {
          peers.add((String) at(peer, "ipBlock.cidr"));
        } else if (peer.containsKey("namespaceSelector")) {
          assertThat(map(at(peer, "namespaceSelector.matchLabels")))
              .containsExactly(Map.entry("kubernetes.io/metadata.name", "monitoring"));
          peers.add("monitoring");
        } else {
          Map<String, Object> labels = map(at(peer, "podSelector.matchLabels"));
          assertThat(labels).containsEntry("app.kubernetes.io/instance", "lipa");
          peers.add(labels.containsKey("app.kubernetes.io/name")
              ? (String) labels.get("app.kubernetes.io/name") : "every service");
        }
      }
    }
    return peers;
  }

  private static String exportServiceEnvironment() {
    String platform = Repository.read(Repository.root().resolve("platform"));
    int start = platform.indexOf("export_service_environment() {");
    assertThat(start).as("./platform defines export_service_environment").isNotNegative();
    return platform.substring(start, platform.indexOf("\n}\n", start));
  }

  /** The variables a service's container gets: its ConfigMap's and the Secret's keys. */
  private static Set<String> settingsOf(String service) {
    Map<String, Object> container = container(service);
    List<Map<String, Object>> envFrom = RenderedChart.list(container, "envFrom");
    assertThat(envFrom).extracting(e -> at(e, "configMapRef.name")).contains(service + "-config");
    assertThat(envFrom).extracting(e -> at(e, "secretRef.name")).contains("lipa-secrets");
    Set<String> keys = new TreeSet<>(configMap(service).keySet());
    keys.addAll(map(at(chart.get("Secret", "lipa-secrets"), "stringData")).keySet());
    return keys;
  }

  private static Map<String, Object> configMap(String service) {
    return map(at(chart.get("ConfigMap", service + "-config"), "data"));
  }

  private static Map<String, Object> container(String service) {
    List<Map<String, Object>> containers =
        RenderedChart.list(chart.get("Deployment", service), "spec.template.spec.containers");
    assertThat(containers).hasSize(1);
    return containers.getFirst();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> topics(Map<String, Object> file) {
    return (List<Map<String, Object>>) file.get("topics");
  }

  @SuppressWarnings("unchecked")
  private static List<String> groups(Map<String, Object> topic) {
    Object groups = topic.get("consumerGroups");
    return groups == null ? List.of() : (List<String>) groups;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object node) {
    return node == null ? Map.of() : (Map<String, Object>) node;
  }
}
