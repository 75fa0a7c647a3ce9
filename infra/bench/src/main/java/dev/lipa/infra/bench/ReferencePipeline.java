package dev.lipa.infra.bench;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.bson.types.Decimal128;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reference payment of {@code ./platform bench}: a bare HTTP endpoint doing per STK push the essential work of a
 * payment on the platform, and nothing more, on the same store and broker, so that the platform's throughput can be
 * read as a fraction of it on the same machine. Per payment:
 * <ol>
 *   <li>accept: the body checked as collections-service checks it ({@link ReferenceStkRequest}; a refused body is
 *       answered 400 and writes nothing), the push inserted PENDING ({@value #COLLECTION}, the fields of
 *       collections-service's document), {@code stk.accepted} produced to {@value #TOPIC} (idempotent producer,
 *       acks=all) and acknowledged, 201;</li>
 *   <li>after the sandbox delay, the outcome: a compare-and-set from PENDING to SUCCESS (FAILED for the sandbox's
 *       failing numbers), {@code stk.succeeded}/{@code stk.failed} to {@value #TOPIC} and {@code callback.requested} to
 *       {@value #CALLBACKS_TOPIC}, both acknowledged ({@link ReferenceOutcomes});</li>
 *   <li>a success's ledger credit, batched per short tick ({@link ReferenceLedger});</li>
 *   <li>the signed callback POST and its delivery insert ({@link ReferenceCallbacks}).</li>
 * </ol>
 * Everything is in the database {@value #DATABASE} and on the topics above, which it creates itself
 * ({@link ReferenceTopic}), so that no platform consumer sees them and the bench counts them apart. No gateway, no
 * token, no outbox, no consumer of its own records (one process hands each step to the next in memory). At most
 * {@value #MAX_IN_FLIGHT} requests are worked on at once; more are refused with 503.
 *
 * <p>Usage: {@code ReferencePipeline --port <port> --mongo <uri> --kafka <bootstrap> [--outcome-delay-ms 3000]}; the
 * callbacks' signing secret ({@code whsec_...}) is read from the environment variable {@value #SECRET_VARIABLE} (a
 * new one when it is not set). Prints a line with "ready" when it listens. Stops on SIGTERM.
 */
public final class ReferencePipeline implements AutoCloseable {

  static final String DATABASE = "lipa-bench-reference";
  static final String COLLECTION = "stk_pushes";
  static final String TOPIC = "bench.reference.v1";
  static final String CALLBACKS_TOPIC = "bench.reference.callbacks.v1";
  static final String PATH = "/reference/stk";
  static final String SECRET_VARIABLE = "LIPA_BENCH_REFERENCE_SIGNING_SECRET";
  static final String ORGANISATION = "bench-reference";
  static final int MAX_IN_FLIGHT = 256;
  /** collections-service's default {@code lipa.collections.sandbox.outcome-delay}. */
  static final Duration DEFAULT_OUTCOME_DELAY = Duration.ofSeconds(3);

  /** What the pipeline needs: where it listens and what it uses. */
  record Settings(int port, String kafka, Duration outcomeDelay, String signingSecret) {
  }

  // amounts as decimals, never doubles: 1e400 is refused as too large, not read as infinity
  static final JsonMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private final MongoCollection<Document> pushes;
  private final KafkaProducer<String, String> producer;
  private final ReferenceEvents events = new ReferenceEvents(JSON, ORGANISATION);
  private final ReferenceLedger ledger;
  private final ReferenceCallbacks callbacks;
  private final ReferenceOutcomes outcomes;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicLong ids = new AtomicLong(System.currentTimeMillis() * 1000);
  private final LongAdder accepted = new LongAdder();
  private final LongAdder refused = new LongAdder();
  /**
   * Work admitted at once; beyond it a request is refused at once with 503 (as the gateway's bulkhead refuses), so an
   * overload sheds requests instead of queueing them until every answer is late.
   */
  private final Semaphore admitted = new Semaphore(MAX_IN_FLIGHT);

  private ReferencePipeline(Settings settings, MongoDatabase database) throws IOException {
    this.pushes = database.getCollection(COLLECTION);
    this.producer = new KafkaProducer<>(producerProperties(settings.kafka()));
    this.ledger = new ReferenceLedger(database);
    this.callbacks = new ReferenceCallbacks(database, WebhookSigning.key(settings.signingSecret()));
    this.outcomes = new ReferenceOutcomes(pushes, producer, events, ledger, callbacks, settings.outcomeDelay());
    producer.partitionsFor(TOPIC); // loads the topics' metadata before the first request
    producer.partitionsFor(CALLBACKS_TOPIC);
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", settings.port()), 4096);
    server.setExecutor(executor);
    server.createContext(PATH, this::handle);
  }

  /**
   * Creates the reference's topics unless they exist, then listens. The client is the caller's (and closed by it).
   */
  static ReferencePipeline start(Settings settings, MongoClient mongo) throws Exception {
    // the brokers create no topic on their own (auto.create.topics.enable=false, as in production): the pipeline
    // creates its own, like the platform's topics
    System.out.println(ReferenceTopic.ensure(settings.kafka(), Duration.ofSeconds(60)));
    ReferencePipeline pipeline = new ReferencePipeline(settings, mongo.getDatabase(DATABASE));
    pipeline.server.start();
    return pipeline;
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    String mongoUri = "mongodb://127.0.0.1:27017";
    String kafka = "127.0.0.1:9092";
    Duration delay = DEFAULT_OUTCOME_DELAY;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--mongo" -> mongoUri = args[++i];
        case "--kafka" -> kafka = args[++i];
        case "--outcome-delay-ms" -> delay = Duration.ofMillis(Long.parseLong(args[++i]));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    String secret = System.getenv(SECRET_VARIABLE);
    MongoClient mongo = MongoClients.create(mongoUri);
    ReferencePipeline pipeline = start(new Settings(port, kafka, delay,
        secret == null || secret.isBlank() ? WebhookSigning.newSecret() : secret), mongo);
    System.out.println("reference payment: outcomes " + delay.toMillis() + " ms after the accept");
    System.out.println("reference pipeline ready on " + pipeline.url());
    System.out.flush();

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      pipeline.close();
      mongo.close();
      System.out.println(pipeline.summary());
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

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
  }

  /** What it did, for its log: each step's count. */
  String summary() {
    return "reference payment: %d accepted, %d refused, %d outcomes applied (%d failed), %d credited (%d failed),"
        .formatted(accepted.sum(), refused.sum(), outcomes.completed(), outcomes.failed(), ledger.credited(),
            ledger.failed())
        + " %d callbacks delivered (%d not)".formatted(callbacks.delivered(), callbacks.failed());
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
    int status;
    String body;
    try {
      ReferenceStkRequest request;
      try (InputStream in = exchange.getRequestBody()) {
        request = ReferenceStkRequest.from(JSON.readTree(in));
      } catch (JacksonException e) {
        throw new ReferenceStkRequest.Refused(Map.of("body", "the body is not JSON"));
      }
      String requestId = accept(request);
      status = 201;
      body = "{\"status\":201,\"message\":\"accepted\",\"data\":{\"requestId\":\"" + requestId
          + "\",\"phoneNumber\":\"" + request.phoneNumber() + "\",\"requestedAmount\":" + request.amount() + "}}";
    } catch (ReferenceStkRequest.Refused e) {
      refused.increment();
      status = 400;
      body = "{\"status\":400,\"message\":\"Validation failed\",\"data\":null,\"errors\":"
          + JSON.writeValueAsString(e.errorLists()) + "}";
    } catch (Exception e) {
      status = 500;
      body = "{\"status\":500,\"message\":\"Internal error\",\"data\":null}";
    }
    try {
      answer(exchange, status, body);
    } catch (IOException e) {
      // the client went away: it counts the request as an error either way
    } finally {
      admitted.release();
      exchange.close();
    }
  }

  /** Inserts the push PENDING, produces stk.accepted and waits for its acknowledgement; schedules the outcome. */
  private String accept(ReferenceStkRequest request) throws Exception {
    String requestId = UUID.randomUUID().toString();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    // the fields of collections-service's stk_pushes document
    Document document = new Document("_id", requestId)
        .append("id", ids.incrementAndGet())
        .append("organisationId", ORGANISATION)
        .append("phoneNumber", request.phoneNumber())
        .append("description", request.description())
        .append("accountReference", request.accountReference())
        .append("amount", new Decimal128(request.amount()))
        .append("currency", "KSH")
        .append("callbackUrl", request.callbackUrl())
        .append("status", "PENDING")
        .append("createdAt", Date.from(now))
        .append("updatedAt", Date.from(now));
    pushes.insertOne(document);
    producer.send(new ProducerRecord<>(TOPIC, requestId, events.accepted(requestId, request, now))).get();
    accepted.increment();
    outcomes.schedule(new ReferenceOutcomes.Pending(requestId, ORGANISATION, request.phoneNumber(),
        request.amount(), request.callbackUrl()));
    return requestId;
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Stops listening and the outcomes still waiting (they stay PENDING), writes the credits gathered, closes. */
  @Override
  public void close() {
    server.stop(0);
    outcomes.close();
    ledger.close();
    callbacks.close();
    producer.close();
    executor.shutdownNow();
  }
}
