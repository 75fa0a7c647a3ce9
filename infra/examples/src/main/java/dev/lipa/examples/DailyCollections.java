package dev.lipa.examples;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The worked example of the AsyncAPI document (docs/asyncapi.yaml): the total of one day's successful collections per
 * currency, read from {@value #TOPIC} with a plain Kafka consumer.
 *
 * <ul>
 *   <li>A successful collection is {@code stk.succeeded} ({@code data.amount} in {@code data.currency}) or
 *       {@code bank.collection.received} ({@code data.amount}, in KSH: bank collections carry no currency).</li>
 *   <li>Each {@code eventId} counts once: the platform publishes at least once, and a republished event has the same
 *       eventId.</li>
 *   <li>Amounts are added as {@link BigDecimal}, never as {@code double} (0.10 + 0.20 is 0.30).</li>
 *   <li>The day is the date of {@code occurredAt} in Africa/Nairobi (UTC+3): 21:00 UTC starts the next day.</li>
 * </ul>
 *
 * <p>Usage: {@code DailyCollections <bootstrap servers> [<day, YYYY-MM-DD; today in Nairobi>] [<topic>]}. It reads the
 * topic from the beginning to its end as it was when it started, without a consumer group (nothing is committed, the
 * platform's groups are untouched), and prints one line per currency.
 */
public final class DailyCollections {

  public static final String TOPIC = "payments.collections.v1";
  public static final ZoneId NAIROBI = ZoneId.of("Africa/Nairobi");
  static final String STK_SUCCEEDED = "stk.succeeded";
  static final String BANK_RECEIVED = "bank.collection.received";
  /** The only version of both types this program knows (the document's deprecation rule: it must learn N+1 first). */
  static final int VERSION = 1;

  // decimals read as BigDecimal: 1500.25 stays 1500.25, not the nearest double
  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private DailyCollections() {
  }

  /** One successful collection, as one event reports it. */
  public record Collection(String eventId, LocalDate day, String currency, BigDecimal amount) {
  }

  /** What one record says: a collection, nothing of interest, or something this program cannot read. */
  sealed interface Reading {
    record Counted(Collection collection) implements Reading {
    }

    record Ignored() implements Reading {
    }

    record Unreadable(String why) implements Reading {
    }
  }

  /** The successful collections of one day per currency, every eventId counted once. */
  public static final class Totals {

    private final LocalDate day;
    private final Set<String> counted = new HashSet<>();
    private final SortedMap<String, BigDecimal> byCurrency = new TreeMap<>();
    private int unreadable;

    public Totals(LocalDate day) {
      this.day = day;
    }

    /** Adds a collection of the day unless its eventId was counted already; true when it was added. */
    public boolean add(Collection collection) {
      if (!collection.day().equals(day) || !counted.add(collection.eventId())) {
        return false;
      }
      byCurrency.merge(collection.currency(), collection.amount(), BigDecimal::add);
      return true;
    }

    /** Reads one record's value and adds what it reports. */
    public void addRecord(String value) {
      switch (read(value)) {
        case Reading.Counted counted -> add(counted.collection());
        case Reading.Unreadable ignored -> unreadable++;
        case Reading.Ignored ignored -> {
        }
      }
    }

    public LocalDate day() {
      return day;
    }

    public SortedMap<String, BigDecimal> byCurrency() {
      return byCurrency;
    }

    /** Records of a type this program counts that it could not read (another version, a missing field). */
    public int unreadable() {
      return unreadable;
    }

    /** The report: the day, then one line per currency. */
    public String report() {
      StringBuilder out = new StringBuilder(day + " (" + NAIROBI + ")\n");
      if (byCurrency.isEmpty()) {
        out.append("no successful collections\n");
      }
      byCurrency.forEach((currency, total) -> out.append(currency).append(' ').append(total.toPlainString())
          .append('\n'));
      return out.toString();
    }
  }

  /** What a record's value reports; any other event type, and a tombstone, is ignored. */
  static Reading read(String value) {
    if (value == null) {
      return new Reading.Ignored();
    }
    JsonNode event;
    try {
      event = JSON.readTree(value);
    } catch (JacksonException e) {
      return new Reading.Unreadable("not JSON");
    }
    String type = event.path("type").asString("");
    if (!type.equals(STK_SUCCEEDED) && !type.equals(BANK_RECEIVED)) {
      return new Reading.Ignored();
    }
    if (event.path("version").asInt(-1) != VERSION) {
      return new Reading.Unreadable(type + " of version " + event.path("version") + " (this program reads "
          + VERSION + ")");
    }
    JsonNode data = event.path("data");
    String eventId = text(event.path("eventId"));
    // bank collections carry no currency: they are Kenyan (the ledger reads them the same way)
    String currency = type.equals(STK_SUCCEEDED) ? text(data.path("currency"))
        : data.path("currency").asString("KSH");
    Instant occurredAt;
    BigDecimal amount;
    try {
      occurredAt = Instant.parse(String.valueOf(text(event.path("occurredAt"))));
      amount = decimal(data.path("amount"));
    } catch (DateTimeParseException | NumberFormatException e) {
      return new Reading.Unreadable(type + " with an unreadable occurredAt or amount");
    }
    if (eventId == null || currency == null) {
      return new Reading.Unreadable(type + " without eventId or currency");
    }
    return new Reading.Counted(new Collection(eventId, occurredAt.atZone(NAIROBI).toLocalDate(), currency, amount));
  }

  /** The contract writes a JSON number; a decimal string is read the same way, never through a double. */
  private static BigDecimal decimal(JsonNode amount) {
    if (amount.isNumber()) {
      return amount.decimalValue();
    }
    String text = text(amount);
    if (text == null) {
      throw new NumberFormatException("no amount");
    }
    return new BigDecimal(text);
  }

  private static String text(JsonNode node) {
    return node.isString() ? node.stringValue() : null;
  }

  /** Reads {@code topic} from the beginning to its end as it is now and totals the collections of {@code day}. */
  public static Totals totals(String bootstrapServers, String topic, LocalDate day) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "daily-collections-" + UUID.randomUUID());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    Totals totals = new Totals(day);
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
      // every partition, no group: the records of one key are in order on their partition, and the totals need no
      // order across partitions
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          totals.addRecord(record.value());
        }
      }
    }
    return totals;
  }

  public static void main(String[] args) {
    if (args.length < 1 || args.length > 3) {
      System.err.println("usage: DailyCollections <bootstrap servers> [<day YYYY-MM-DD>] [<topic>]");
      System.exit(2);
    }
    LocalDate day = args.length > 1 ? LocalDate.parse(args[1]) : LocalDate.now(NAIROBI);
    Totals totals = totals(args[0], args.length > 2 ? args[2] : TOPIC, day);
    System.out.print(totals.report());
    if (totals.unreadable() > 0) {
      System.err.println(totals.unreadable() + " collection records were not counted: a version or a shape this "
          + "program does not know");
    }
  }

  /** For tests: the collection a record reports, if it reports one. */
  static Optional<Collection> collectionOf(String value) {
    return read(value) instanceof Reading.Counted counted ? Optional.of(counted.collection()) : Optional.empty();
  }
}
