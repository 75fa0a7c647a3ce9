package dev.lipa.infra.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.kafka.DeadLetterTopics;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicDeclarationsTests {

  private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
  private static final Path FILE = ROOT.resolve("infra/deploy/helm/lipa/topics.yaml");
  private static final List<String> SERVICES = List.of("auth-service", "collections-service", "payouts-service",
      "checkout-service", "callback-dispatcher");

  @TempDir
  Path dir;

  @Test
  void theDeclaredTopicsAreExactlyTheTopicsConstantsOfCommonInBothEnvironments() throws IllegalAccessException {
    Set<String> names = new TreeSet<>();
    for (Field field : Topics.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        String sandboxName = (String) field.get(null);
        names.add(sandboxName);
        names.add(StackEnvironment.LIVE.topic(sandboxName));
      }
    }
    assertThat(TopicDeclarations.read(FILE).topics()).extracting(TopicDeclarations.Topic::name)
        .containsExactlyInAnyOrderElementsOf(names);
  }

  @Test
  void theDeclaredConsumerGroupsAreExactlyTheKafkaListenersOfTheServices() throws IOException {
    assertThat(declaredGroupsByTopic()).isEqualTo(listenerGroupsByTopic());
  }

  @Test
  void everyConsumerGroupGetsItsDeadLetterTopicByCommonsNamingRule() {
    TopicDeclarations declarations = TopicDeclarations.read(FILE);
    Set<String> names = declarations.on(3).stream().map(TopicDeclarations.TopicSpec::name)
        .collect(Collectors.toSet());
    for (TopicDeclarations.Topic topic : declarations.topics()) {
      for (String group : topic.consumerGroups()) {
        assertThat(names).contains(DeadLetterTopics.name(topic.name(), group));
        assertThat(TopicDeclarations.deadLetterTopic(topic.name(), group))
            .isEqualTo(DeadLetterTopics.name(topic.name(), group));
      }
    }
  }

  @Test
  void aClusterOfThreeGetsReplicationThreeAndTwoInSyncReplicas() {
    assertThat(TopicDeclarations.read(FILE).on(3)).allSatisfy(spec -> {
      assertThat(spec.replicationFactor()).isEqualTo((short) 3);
      assertThat(spec.configs()).containsEntry("min.insync.replicas", "2");
    });
  }

  @Test
  void aSingleBrokerLowersReplicationAndInSyncReplicasToOne() {
    assertThat(TopicDeclarations.read(FILE).on(1)).allSatisfy(spec -> {
      assertThat(spec.replicationFactor()).isEqualTo((short) 1);
      assertThat(spec.configs()).containsEntry("min.insync.replicas", "1");
    });
  }

  @Test
  void theCompactedTopicIsCompactedAndItsDeadLettersAreNot() {
    Map<String, TopicDeclarations.TopicSpec> specs = TopicDeclarations.read(FILE).on(3).stream()
        .collect(Collectors.toMap(TopicDeclarations.TopicSpec::name, s -> s));
    assertThat(specs.get(Topics.ORGANISATIONS).configs()).containsEntry("cleanup.policy", "compact");
    assertThat(specs.get(Topics.COLLECTIONS).configs()).containsEntry("cleanup.policy", "delete");
    assertThat(specs.get(DeadLetterTopics.name(Topics.ORGANISATIONS, "payouts-service-organisations")).configs())
        .containsEntry("cleanup.policy", "delete").containsEntry("retention.ms", "2419200000");
  }

  @Test
  void aTopicDeclaredTwiceIsRefused() throws IOException {
    assertThatThrownBy(() -> TopicDeclarations.read(file("""
        defaults: {partitions: 3, replicationFactor: 3, minInsyncReplicas: 2, retentionMs: 1, deadLetterRetentionMs: 1}
        topics:
          - {name: a.v1, cleanupPolicy: delete, consumerGroups: [g]}
          - {name: a.v1, cleanupPolicy: compact}
        """))).hasMessageContaining("declared twice");
  }

  @Test
  void aMisspelledKeyIsRefusedRatherThanDefaulted() throws IOException {
    assertThatThrownBy(() -> TopicDeclarations.read(file("""
        defaults: {partitions: 3, replicationFactor: 3, minInsyncReplicas: 2, retentionMs: 1, deadLetterRetentionMs: 1}
        topics:
          - {name: a.v1, cleanupPolicy: delete, partition: 12}
        """))).hasMessageContaining("unknown key 'partition'");
  }

  @Test
  void moreInSyncReplicasThanReplicasIsRefused() throws IOException {
    assertThatThrownBy(() -> TopicDeclarations.read(file("""
        defaults: {partitions: 3, replicationFactor: 2, minInsyncReplicas: 3, retentionMs: 1, deadLetterRetentionMs: 1}
        topics:
          - {name: a.v1, cleanupPolicy: delete}
        """))).hasMessageContaining("minInsyncReplicas 3 above replicationFactor 2");
  }

  @Test
  void anUnknownCleanupPolicyIsRefused() throws IOException {
    assertThatThrownBy(() -> TopicDeclarations.read(file("""
        defaults: {partitions: 3, replicationFactor: 3, minInsyncReplicas: 2, retentionMs: 1, deadLetterRetentionMs: 1}
        topics:
          - {name: a.v1, cleanupPolicy: compacted}
        """))).hasMessageContaining("cleanupPolicy must be delete or compact");
  }

  private Path file(String yaml) throws IOException {
    Path file = dir.resolve("topics.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static Map<String, Set<String>> declaredGroupsByTopic() {
    Map<String, Set<String>> groups = new TreeMap<>();
    for (TopicDeclarations.Topic topic : TopicDeclarations.read(FILE).topics()) {
      // a topic no service listener reads (the payouts topic in sandbox: its rail is fed in process) names no group
      if (!topic.consumerGroups().isEmpty()) {
        groups.put(topic.name(), new TreeSet<>(topic.consumerGroups()));
      }
    }
    return groups;
  }

  /**
   * Every {@code @KafkaListener} of the services' and common's main sources, read from the source text, in each
   * environment it runs in (a class marked {@code @ConditionalOnEnvironment} runs in that one only, a listener whose
   * {@code autoStartup} is {@code LIVE_ONLY} consumes in live only): its topic (a Topics constant, a
   * {@code Topics.OfEnvironment} one as that environment names it, or a property whose default is one) and its group
   * id (a constant of its class, a literal, or a property's default, with the environment's suffix; common's
   * organisation listener takes {@code <service>-organisations} in every service that uses the organisation directory).
   */
  private static Map<String, Set<String>> listenerGroupsByTopic() throws IOException {
    Map<String, Set<String>> groups = new TreeMap<>();
    for (StackEnvironment stack : List.of(StackEnvironment.SANDBOX, StackEnvironment.LIVE)) {
      listenerGroupsByTopic(stack).forEach((topic, g) -> groups.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(g));
    }
    return groups;
  }

  private static Map<String, Set<String>> listenerGroupsByTopic(StackEnvironment stack) throws IOException {
    Map<String, String> constants = new HashMap<>();
    for (Field field : Topics.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        try {
          String sandboxName = (String) field.get(null);
          constants.put("Topics." + field.getName(), sandboxName);
          constants.put("Topics.OfEnvironment." + field.getName(), stack.topic(sandboxName));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    constants.put("Topics.OfEnvironment.GROUP_SUFFIX", stack.suffix());
    String otherEnvironment = "@ConditionalOnEnvironment(Environment."
        + (stack.isLive() ? "SANDBOX" : "LIVE") + ")";
    List<Path> sources = new ArrayList<>();
    for (String module : Stream.concat(SERVICES.stream(), Stream.of("common")).toList()) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
        files.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
      }
    }
    Map<String, Set<String>> groups = new TreeMap<>();
    Pattern annotation = Pattern.compile("@KafkaListener\\((.*?)\\)\\s*\\n\\s*(public |void |private |protected )",
        Pattern.DOTALL);
    int listeners = 0;
    for (Path source : sources) {
      String text = Files.readString(source);
      if (text.contains(otherEnvironment)) {
        continue;
      }
      Matcher matcher = annotation.matcher(text);
      while (matcher.find()) {
        listeners++;
        String args = matcher.group(1);
        if (!stack.isLive() && args.matches("(?s).*autoStartup\\s*=\\s*LIVE_ONLY.*")) {
          continue;
        }
        String topic = resolve(attribute(args, "topics"), text, constants);
        String group = resolve(attribute(args, "groupId"), text, constants);
        List<String> resolvedGroups = new ArrayList<>();
        if (group.contains("${spring.application.name}")) {
          for (String service : servicesUsingTheOrganisationDirectory()) {
            resolvedGroups.add(group.replace("${spring.application.name}", service));
          }
        } else {
          resolvedGroups.add(group);
        }
        groups.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(resolvedGroups);
      }
    }
    assertThat(listeners).as("@KafkaListener methods found in the sources").isGreaterThanOrEqualTo(6);
    return groups;
  }

  private static String attribute(String args, String name) {
    Matcher matcher = Pattern.compile(name + "\\s*=\\s*((?:\"[^\"]*\"|[A-Za-z_.]+)(?:\\s*\\+\\s*(?:\"[^\"]*\"|[A-Za-z_.]+))*)")
        .matcher(args);
    assertThat(matcher.find()).as("%s in @KafkaListener(%s)", name, args).isTrue();
    return matcher.group(1);
  }

  /** Concatenates the expression's parts, constants resolved, then takes a ${property:default}'s default. */
  private static String resolve(String expression, String source, Map<String, String> constants) {
    StringBuilder value = new StringBuilder();
    for (String part : expression.split("\\s*\\+\\s*")) {
      if (part.startsWith("\"")) {
        value.append(part, 1, part.length() - 1);
      } else if (constants.containsKey(part)) {
        value.append(constants.get(part));
      } else {
        Matcher constant = Pattern.compile("\\b" + Pattern.quote(part) + "\\s*=\\s*\"([^\"]*)\"").matcher(source);
        assertThat(constant.find()).as("the constant %s", part).isTrue();
        value.append(constant.group(1));
      }
    }
    String text = value.toString();
    Matcher property = Pattern.compile("^\\$\\{[a-z.-]+:(.*)}$").matcher(text);
    return property.matches() ? property.group(1) : text;
  }

  /** The services whose application.yml turns the organisation directory (and so its listener) on. */
  private static List<String> servicesUsingTheOrganisationDirectory() {
    Pattern enabled = Pattern.compile("\\n  organisations:\\n(?:\\s*#.*\\n)*\\s*directory:\\n(?:\\s*#.*\\n)*\\s*enabled: true");
    List<String> services = new ArrayList<>();
    for (String service : SERVICES) {
      if (enabled.matcher(read(ROOT.resolve(service).resolve("src/main/resources/application.yml"))).find()) {
        services.add(service);
      }
    }
    assertThat(services).as("services with the organisation directory").isNotEmpty();
    return services;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
