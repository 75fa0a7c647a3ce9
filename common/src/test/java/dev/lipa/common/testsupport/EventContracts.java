package dev.lipa.common.testsupport;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The AsyncAPI document ({@code docs/asyncapi.yaml}) as the tests' oracle for events: every event a producer writes
 * must be a message of the document, by its {@code type} and {@code version}, on a channel whose topic lists that
 * message, and its JSON must match that message's payload schema. An event whose type or version the document lacks
 * is a violation too, so a producer cannot publish anything the document does not describe.
 *
 * <p>A message is found by its {@code name} (the event type) and the {@code const} of
 * {@code payload.properties.version} (the version). The payload schemas are JSON Schema draft 7 (AsyncAPI's schema
 * format is a superset of it); they are checked with networknt's validator, formats ({@code uuid}, {@code date-time},
 * {@code date}, {@code uri}) asserted.
 */
public final class EventContracts {

  /** Where the document is, relative to the repository root. */
  public static final String DOCUMENT = "docs/asyncapi.yaml";

  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
  private static volatile EventContracts loaded;

  /** One event type at one version. */
  public record EventKind(String type, int version) {

    @Override
    public String toString() {
      return type + " v" + version;
    }
  }

  private final Map<EventKind, Schema> schemas;
  private final Map<String, Set<EventKind>> byTopic;
  private final Map<EventKind, List<String>> examples;

  private EventContracts(Map<EventKind, Schema> schemas, Map<String, Set<EventKind>> byTopic,
      Map<EventKind, List<String>> examples) {
    this.schemas = schemas;
    this.byTopic = byTopic;
    this.examples = examples;
  }

  /** The repository's document, read once per test JVM. */
  public static EventContracts document() {
    EventContracts contracts = loaded;
    if (contracts == null) {
      synchronized (EventContracts.class) {
        if (loaded == null) {
          loaded = read(locate());
        }
        contracts = loaded;
      }
    }
    return contracts;
  }

  /** Shortcut: fails with every violation when the event is not what the document says {@code topic} carries. */
  public static void assertConforms(String topic, String json) {
    document().assertValid(topic, json);
  }

  /** Reads a document (the repository's, or a variant a test wrote to attack the checks). */
  public static EventContracts read(Path document) {
    JsonNode root;
    try {
      root = YAMLMapper.builder().build().readTree(Files.readString(document));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + document, e);
    }
    // the payloads' schemas refer to #/components/schemas/...: each message's schema gets them as draft 7
    // definitions, so that references resolve inside the one schema document networknt is given
    String definitions = root.path("components").path("schemas").toString()
        .replace("#/components/schemas/", "#/definitions/");
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7,
        builder -> builder.schemaRegistryConfig(com.networknt.schema.SchemaRegistryConfig.builder()
            .formatAssertionsEnabled(true).build()));
    Map<String, EventKind> kindsById = new LinkedHashMap<>();
    Map<EventKind, Schema> schemas = new LinkedHashMap<>();
    Map<EventKind, List<String>> examples = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> message : root.path("components").path("messages").properties()) {
      JsonNode payload = message.getValue().path("payload");
      JsonNode version = payload.path("properties").path("version").path("const");
      if (!version.isIntegralNumber()) {
        continue; // not an event of the envelope (the dead letters' message: any record, byte for byte)
      }
      EventKind kind = new EventKind(message.getValue().path("name").asString(), version.intValue());
      ObjectNode schema = JSON.createObjectNode();
      schema.put("$schema", "http://json-schema.org/draft-07/schema#");
      schema.set("definitions", JSON.readTree(definitions));
      schema.putArray("allOf").add(JSON.readTree(payload.toString().replace("#/components/schemas/", "#/definitions/")));
      if (schemas.put(kind, registry.getSchema(schema)) != null) {
        throw new IllegalStateException(document + " describes " + kind + " twice");
      }
      kindsById.put("#/components/messages/" + message.getKey(), kind);
      List<String> payloads = new ArrayList<>();
      message.getValue().path("examples").forEach(example -> payloads.add(example.path("payload").toString()));
      examples.put(kind, payloads);
    }
    Map<String, Set<EventKind>> byTopic = new LinkedHashMap<>();
    for (JsonNode channel : root.path("channels")) {
      Set<EventKind> kinds = new LinkedHashSet<>();
      for (JsonNode message : channel.path("messages")) {
        EventKind kind = kindsById.get(message.path("$ref").asString(""));
        if (kind != null) {
          kinds.add(kind);
        }
      }
      if (!kinds.isEmpty()) {
        byTopic.put(channel.path("address").asString(), kinds);
      }
    }
    return new EventContracts(schemas, byTopic, examples);
  }

  /** Every event type and version the document describes. */
  public Set<EventKind> kinds() {
    return schemas.keySet();
  }

  /** The example payloads the document gives for an event kind (JSON text), so that they can be checked too. */
  public List<String> examples(EventKind kind) {
    return examples.getOrDefault(kind, List.of());
  }

  /** The event kinds the document lists on the channel with this topic (empty for a topic it does not know). */
  public Set<EventKind> kindsOn(String topic) {
    return byTopic.getOrDefault(topic, Set.of());
  }

  /** Why this record value is not a valid event on {@code topic}; empty when it is. */
  public List<String> violations(String topic, String json) {
    JsonNode event;
    try {
      event = JSON.readTree(json);
    } catch (JacksonException e) {
      return List.of("not JSON: " + e.getOriginalMessage());
    }
    if (event == null || !event.isObject()) {
      return List.of("not a JSON object");
    }
    JsonNode type = event.path("type");
    JsonNode version = event.path("version");
    if (!type.isString() || !version.isIntegralNumber()) {
      return List.of("no string type and integral version: not an event envelope");
    }
    EventKind kind = new EventKind(type.stringValue(), version.intValue());
    Schema schema = schemas.get(kind);
    if (schema == null) {
      return List.of(kind + " is not in " + DOCUMENT + " (it describes " + kinds() + ")");
    }
    List<String> violations = new ArrayList<>();
    if (!kindsOn(topic).contains(kind)) {
      violations.add(kind + " is not a message of the channel " + topic + " in " + DOCUMENT);
    }
    List<Error> errors = schema.validate(event);
    violations.addAll(errors.stream().map(Error::toString).toList());
    return violations;
  }

  /** Fails with every violation when the record value is not a valid event on {@code topic}. */
  public void assertValid(String topic, String json) {
    List<String> violations = violations(topic, json);
    if (!violations.isEmpty()) {
      throw new AssertionError("an event on " + topic + " breaks its contract in " + DOCUMENT + ":\n  "
          + violations.stream().collect(Collectors.joining("\n  ")) + "\nthe event: " + json);
    }
  }

  /**
   * The document, found from the working directory upwards (tests run in a module's directory, one or two levels
   * below the repository root), or at the system property {@code lipa.asyncapi}.
   */
  static Path locate() {
    String property = System.getProperty("lipa.asyncapi");
    if (property != null) {
      return Paths.get(property);
    }
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve(DOCUMENT);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(DOCUMENT + " not found above " + Paths.get("").toAbsolutePath());
  }
}
