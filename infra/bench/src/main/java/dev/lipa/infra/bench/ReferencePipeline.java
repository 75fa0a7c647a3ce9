package dev.lipa.infra.bench;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.bson.types.Decimal128;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reference pipeline of {@code ./platform bench}: one bare HTTP endpoint doing only the essential work of an
 * accepted STK push, so that the platform's throughput can be read as a fraction of it on the same machine, store
 * and broker. Per request it inserts the same kind of document the collections service stores (same fields, in the
 * database {@code lipa-bench-reference}) and produces the same kind of record ({@code stk.accepted} envelope, keyed by
 * requestId, to the topic {@code bench.reference.v1} so that no platform consumer sees it, which it creates itself
 * ({@link ReferenceTopic}); idempotent producer, acks=all), and answers 201 once both are acknowledged. No gateway,
 * no token, no validation, no outbox. At most {@value #MAX_IN_FLIGHT} requests are worked on at once; more are refused
 * with 503.
 *
 * <p>Usage: {@code ReferencePipeline --port <port> --mongo <uri> --kafka <bootstrap>}; prints a line with "ready"
 * when it listens. Stops on SIGTERM.
 */
public final class ReferencePipeline {

  static final String DATABASE = "lipa-bench-reference";
  static final String COLLECTION = "stk_pushes";
  static final String TOPIC = "bench.reference.v1";
  static final String PATH = "/reference/stk";

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ORGANISATION = "bench-reference";
  static final int MAX_IN_FLIGHT = 256;

  private final MongoCollection<Document> collection;
  private final KafkaProducer<String, String> producer;
  private final AtomicLong ids = new AtomicLong(System.currentTimeMillis() * 1000);
  /**
   * Work admitted at once; beyond it a request is refused at once with 503 (as the gateway's bulkhead refuses), so an
   * overload sheds requests instead of queueing them until every answer is late.
   */
  private final Semaphore admitted = new Semaphore(MAX_IN_FLIGHT);

  private ReferencePipeline(MongoCollection<Document> collection, KafkaProducer<String, String> producer) {
    this.collection = collection;
    this.producer = producer;
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    String mongoUri = "mongodb://127.0.0.1:27017";
    String kafka = "127.0.0.1:9092";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--mongo" -> mongoUri = args[++i];
        case "--kafka" -> kafka = args[++i];
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    // the brokers create no topic on their own (auto.create.topics.enable=false, as in production): the pipeline
    // creates its own, like the platform's STK topic
    System.out.println(ReferenceTopic.ensure(kafka, Duration.ofSeconds(60)));
    MongoClient mongo = MongoClients.create(mongoUri);
    KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties(kafka));
    ReferencePipeline pipeline = new ReferencePipeline(
        mongo.getDatabase(DATABASE).getCollection(COLLECTION), producer);
    producer.partitionsFor(TOPIC); // loads the topic's metadata before the first request

    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096);
    server.setExecutor(executor);
    server.createContext(PATH, pipeline::handle);
    server.start();
    System.out.println("reference pipeline ready on http://127.0.0.1:" + server.getAddress().getPort() + PATH);
    System.out.flush();

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.stop(0);
      producer.close();
      mongo.close();
      stopped.countDown();
    }));
    stopped.await();
  }

  static Properties producerProperties(String bootstrap) {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return properties;
  }

  private void handle(HttpExchange exchange) {
    if (!admitted.tryAcquire()) {
      try (exchange) {
        exchange.sendResponseHeaders(503, -1);
      } catch (IOException e) {
        // the client went away
      }
      return;
    }
    try {
      JsonNode body;
      try (InputStream in = exchange.getRequestBody()) {
        body = JSON.readTree(in);
      }
      String requestId = UUID.randomUUID().toString();
      Instant now = Instant.now();
      BigDecimal amount = body.path("amount").decimalValue();
      String phone = body.path("phoneNumber").asString();
      // the fields of the collections service's stk_pushes document
      Document document = new Document("_id", requestId)
          .append("id", ids.incrementAndGet())
          .append("organisationId", ORGANISATION)
          .append("phoneNumber", phone)
          .append("description", body.path("description").asString())
          .append("accountReference", body.path("accountReference").asString())
          .append("amount", new Decimal128(amount))
          .append("currency", "KSH")
          .append("callbackUrl", body.path("callbackUrl").asString())
          .append("status", "PENDING")
          .append("createdAt", Date.from(now))
          .append("updatedAt", Date.from(now));
      collection.insertOne(document);

      Map<String, Object> data = new LinkedHashMap<>();
      data.put("requestId", requestId);
      data.put("referenceId", null);
      data.put("phoneNumber", phone);
      data.put("amount", amount);
      data.put("currency", "KSH");
      data.put("status", "PENDING");
      Map<String, Object> envelope = new LinkedHashMap<>();
      envelope.put("eventId", UUID.randomUUID().toString());
      envelope.put("type", "stk.accepted");
      envelope.put("version", 1);
      envelope.put("occurredAt", now.toString());
      envelope.put("organisationId", ORGANISATION);
      envelope.put("data", data);
      producer.send(new ProducerRecord<>(TOPIC, requestId, JSON.writeValueAsString(envelope))).get();

      byte[] answer = ("{\"status\":201,\"message\":\"accepted\",\"data\":{\"requestId\":\"" + requestId
          + "\",\"phoneNumber\":\"" + phone + "\",\"requestedAmount\":" + amount + "}}")
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(201, answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    } catch (Exception e) {
      try {
        exchange.sendResponseHeaders(500, -1);
      } catch (IOException alreadyAnswered) {
        // the client sees a broken answer: counted as an error either way
      }
    } finally {
      admitted.release();
      exchange.close();
    }
  }
}
