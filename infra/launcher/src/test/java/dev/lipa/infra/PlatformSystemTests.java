package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.sun.net.httpserver.HttpServer;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.testsupport.EventContracts;
import dev.lipa.common.testsupport.RawHttp;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.tracing.LogContext;
import dev.lipa.infra.topics.TopicDeclarations;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Starts the whole platform exactly as a user does ({@code ./platform up}: a Kafka broker, the on-disk store and every
 * service as its own process) on ports of its own, and drives one STK push from token to callback through the gateway.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlatformSystemTests {

  private static final Path ROOT = Launcher.ROOT;
  private static final Path VAR = Path.of("target", "system-var").toAbsolutePath();
  /** Every port of the platform's table moved by this much, clear of a platform running on the defaults. */
  private static final int PORT_OFFSET = 10_000;
  private static final int GATEWAY_PORT = Ports.declared().stream().filter(p -> p.listener().equals("gateway"))
      .findFirst().orElseThrow().defaultPort() + PORT_OFFSET;
  private static final Map<String, String> ENV = new HashMap<>();
  private static final JsonMapper JSON = JsonMapper.builder().build();
  /** Debian's prometheus: ./platform up --observe starts it when it is there (CI installs it; elsewhere it may not be). */
  private static final boolean OBSERVE = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
      .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "prometheus")));

  private static HttpServer merchant;
  private static final BlockingQueue<String> callbacks = new LinkedBlockingQueue<>();
  /** The traceparent each callback POST carried, by its body. */
  private static final Map<String, String> callbackTraceparents = new ConcurrentHashMap<>();
  /** Every access token this test was issued: none may appear in a log line or a span. */
  private static final Set<String> issuedTokens = ConcurrentHashMap.newKeySet();
  /** The platform exports its spans here (LIPA_OTLP_ENDPOINT), every one sampled (LIPA_TRACING_SAMPLING=1.0). */
  private static OtlpReceiver traces;
  private static TestHttp gateway;
  private static String requestId;
  /** The trace id the gateway returned for the STK push of {@code stkPushGoesFromTokenToCallbackThroughTheGateway}. */
  private static String stkTraceId;

  @BeforeAll
  static void startPlatform() throws Exception {
    FileSystemUtils.deleteRecursively(VAR);
    ENV.put("LIPA_VAR", VAR.toString());
    ENV.put("LIPA_SKIP_BUILD", "1");
    // every port ./platform declares, so a port added to its table is moved here too
    for (Ports.Port port : Ports.declared()) {
      ENV.put(port.variable(), String.valueOf(port.defaultPort() + PORT_OFFSET));
    }
    ENV.put("LIPA_COLLECTIONS_SANDBOX_OUTCOMEDELAY", "300ms");
    ENV.put("LIPA_PROMETHEUS_SCRAPE_INTERVAL", "2s");
    traces = OtlpReceiver.start();
    ENV.put("LIPA_OTLP_ENDPOINT", traces.endpoint());
    ENV.put("LIPA_TRACING_SAMPLING", "1.0");
    // the live stack's questions to Daraja come soon: a payment pending 5 s is asked about, a Daraja answer later than
    // 2 s leaves a payout UNKNOWN (settled by Transaction Status)
    ENV.put("LIPA_COLLECTIONS_OVERDUE_AFTER", "5s");
    ENV.put("LIPA_PAYOUTS_OVERDUE_AFTER", "5s");
    ENV.put("LIPA_COLLECTIONS_OVERDUE_SWEEPINTERVAL", "2s");
    ENV.put("LIPA_PAYOUTS_OVERDUE_SWEEPINTERVAL", "2s");
    ENV.put("LIPA_PAYOUTS_DARAJA_REQUESTTIMEOUT", "2s");

    merchant = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    merchant.createContext("/callbacks", exchange -> {
      try (InputStream body = exchange.getRequestBody()) {
        String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
        String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
        if (traceparent != null) {
          callbackTraceparents.put(text, traceparent);
        }
        callbacks.add(text);
      }
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    merchant.start();

    // the live stack too, with the Daraja simulator as its M-Pesa (the second up, after down, is the sandbox alone)
    Result up = OBSERVE ? platform("up", "--observe", "--daraja-simulator") : platform("up", "--daraja-simulator");
    assertThat(up.exitCode).as("./platform up").isZero();
    gateway = new TestHttp("http://localhost:" + GATEWAY_PORT);
  }

  @AfterAll
  static void stopPlatform() throws Exception {
    try {
      Result down = platform("down");
      assertThat(down.exitCode).isZero();
      Result status = platform("status");
      assertThat(status.exitCode).as("status after down: nothing runs").isEqualTo(1);
      assertThat(status.output).doesNotContain("healthy");
      // nothing ./platform started is left behind, the Prometheus of up --observe included
      int prometheusPort = Ports.declared().stream().filter(p -> p.listener().equals("prometheus")).findFirst()
          .orElseThrow().defaultPort() + PORT_OFFSET;
      assertThat(portOpen(prometheusPort)).as("something listens on the Prometheus port after down").isFalse();
    } finally {
      if (merchant != null) {
        merchant.stop(0);
      }
      if (traces != null) {
        traces.close();
      }
    }
  }

  @Test
  @Order(1)
  void writesTheSandboxCredentials() throws IOException {
    JsonNode credentials = credentials();
    assertThat(credentials.path("gatewayUrl").asString()).isEqualTo("http://localhost:" + GATEWAY_PORT);
    assertThat(credentials.path("organisationId").asString()).isNotBlank();
    assertThat(credentials.path("apiKey").asString()).isNotBlank();
    assertThat(credentials.path("apiSecret").asString()).isNotBlank();
  }

  @Test
  @Order(2)
  void stkPushGoesFromTokenToCallbackThroughTheGateway() throws Exception {
    String token = token();
    String callbackUrl = "http://127.0.0.1:" + merchant.getAddress().getPort() + "/callbacks";
    TestHttp.Response created = gateway.postJson("/api/sandbox/v1/stk/new", TestHttp.json(Map.of(
        "description", "Order 42",
        "phoneNumber", "0708374149",
        "amount", 150,
        "accountReference", "INV42",
        "callbackUrl", callbackUrl)), TestHttp.bearer(token));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    stkTraceId = created.headers().firstValue("X-Trace-Id").orElseThrow();
    JsonNode data = created.json().path("data");
    requestId = data.path("requestId").asString();
    assertThat(data.path("phoneNumber").asString()).isEqualTo("254708374149");
    assertThat(data.path("requestedAmount").decimalValue()).isEqualByComparingTo("150");

    String callback = callbacks.poll(30, TimeUnit.SECONDS);
    assertThat(callback).as("callback received").isNotNull();
    JsonNode body = new TestHttp.Response(200, null, callback).json();
    assertThat(body.path("requestId").asString()).isEqualTo(requestId);
    assertThat(body.path("status").asString()).isEqualTo("SUCCESS");
    assertThat(body.path("amount").decimalValue()).isEqualByComparingTo("150");
    assertThat(body.path("phoneNumber").asString()).isEqualTo("254708374149");
    // the merchant's callback continues the trace the gateway started for the push, and returned to the caller
    assertThat(callbackTraceparents.get(callback)).as("the callback's traceparent")
        .matches("00-" + stkTraceId + "-[0-9a-f]{16}-[0-9a-f]{2}");

    TestHttp.Response list = gateway.get("/api/sandbox/v1/stk/all", TestHttp.bearer(token));
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.json().path("data").findValuesAsString("uuid")).contains(requestId);
  }

  /**
   * One STK push is one trace: the spans every process exported for the trace id the gateway returned cover the
   * gateway, collections-service's HTTP request, its outbox relay and its sandbox rail (fed in process when Kafka
   * acknowledged the push's accepted event, a consumer span of that event), and the callback dispatcher's intake and
   * its POST to the merchant.
   */
  @Test
  @Order(3)
  void oneStkPushIsOneTraceFromTheGatewayToItsCallback() {
    assertThat(stkTraceId).as("the STK push of the earlier step").isNotNull();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
      List<OtlpReceiver.ReceivedSpan> trace = traces.trace(stkTraceId);
      assertThat(trace).as("spans of trace %s", stkTraceId)
          .anySatisfy(span -> assertThat(span).returns("gateway", OtlpReceiver.ReceivedSpan::service)
              .returns("SPAN_KIND_SERVER", OtlpReceiver.ReceivedSpan::kind))
          .anySatisfy(span -> assertThat(span).returns("collections-service", OtlpReceiver.ReceivedSpan::service)
              .returns("SPAN_KIND_SERVER", OtlpReceiver.ReceivedSpan::kind))
          .anySatisfy(span -> assertThat(span).returns("collections-service", OtlpReceiver.ReceivedSpan::service)
              .returns("outbox relay", OtlpReceiver.ReceivedSpan::name))
          .anySatisfy(span -> assertThat(span).returns("collections-service", OtlpReceiver.ReceivedSpan::service)
              .returns("sandbox rail", OtlpReceiver.ReceivedSpan::name)
              .returns("SPAN_KIND_CONSUMER", OtlpReceiver.ReceivedSpan::kind))
          .anySatisfy(span -> assertThat(span).returns("callback-dispatcher", OtlpReceiver.ReceivedSpan::service)
              .returns("SPAN_KIND_CONSUMER", OtlpReceiver.ReceivedSpan::kind))
          // the ledger's credit of the push, read by payouts-service's batch listener in the push's own trace
          .anySatisfy(span -> assertThat(span).returns("payouts-service", OtlpReceiver.ReceivedSpan::service)
              .returns("SPAN_KIND_CONSUMER", OtlpReceiver.ReceivedSpan::kind))
          .anySatisfy(span -> assertThat(span).returns("callback-dispatcher", OtlpReceiver.ReceivedSpan::service)
              .returns("callback POST", OtlpReceiver.ReceivedSpan::name));
    });
    // the callback POST's own span is the parent the merchant saw in traceparent
    String callbackSpan = callbackTraceparents.values().stream().filter(t -> t.contains(stkTraceId)).findFirst()
        .orElseThrow().split("-")[2];
    assertThat(traces.trace(stkTraceId)).anySatisfy(span -> assertThat(span.spanId()).isEqualTo(callbackSpan));
  }

  /**
   * A client's own trace context is not adopted at the edge: the push is answered under a new trace, and nothing the
   * platform exported belongs to the client's trace id.
   */
  @Test
  @Order(3)
  void aClientsTraceparentIsNotAdoptedAtTheEdge() throws Exception {
    String forced = "0af7651916cd43dd8448eb211c80319c";
    Map<String, String> headers = new HashMap<>(TestHttp.bearer(token()));
    headers.put("traceparent", "00-" + forced + "-b7ad6b7169203331-01");
    TestHttp.Response created = gateway.postJson("/api/sandbox/v1/stk/new", TestHttp.json(Map.of(
        "description", "Order 43", "phoneNumber", "0708374149", "amount", 10, "accountReference", "INV43",
        "callbackUrl", "http://127.0.0.1:" + merchant.getAddress().getPort() + "/callbacks")), headers);

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String traceId = created.headers().firstValue("X-Trace-Id").orElseThrow();
    assertThat(traceId).isNotEqualTo(forced);
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
        .until(() -> traces.trace(traceId).stream().anyMatch(span -> span.service().equals("collections-service")));
    assertThat(traces.trace(forced)).as("spans in the client's trace").isEmpty();
  }

  @Test
  @Order(3)
  void smokeBenchReconcilesEveryAcceptedPushWithExactlyOneCallback() throws Exception {
    Result bench = platform("bench", "--smoke");
    assertThat(bench.exitCode).as("./platform bench --smoke").isZero();
    Matcher accepted = Pattern.compile("accepted \\(201\\): (\\d+) ").matcher(bench.output);
    assertThat(accepted.find()).as("the reconciliation line").isTrue();
    assertThat(Long.parseLong(accepted.group(1))).isPositive();
    assertThat(bench.output).contains("lost: 0 ", "duplicated: 0 ", "bench: OK");
    // where the time goes: the services that handled the pushes used measurable CPU per payment
    Matcher cpu = Pattern.compile("\\n    collections-service +(\\d+\\.\\d\\d)").matcher(bench.output);
    assertThat(cpu.find()).as("collections-service's line in the CPU table").isTrue();
    assertThat(Double.parseDouble(cpu.group(1))).isPositive();
    // and how much of the machine the JIT took in the step, read from every platform JVM's HotSpot counters
    assertThat(bench.output).containsPattern("\\n    JIT compiling \\(HotSpot\\) +\\d+%");
  }

  @Test
  @Order(3)
  void everyMetricTheAlertsAndTheDashboardUseExistsAndNoTagCarriesAnIdOrAPhoneNumber() throws Exception {
    String token = token();
    String organisationId = credentials().path("organisationId").asString();
    // ids in paths and query strings, through the gateway to every service: none may reach a metric tag
    String probeId = UUID.randomUUID().toString();
    for (String path : List.of("/api/sandbox/v1/checkout-sessions/" + probeId, "/api/sandbox/v1/stk/" + probeId,
        "/api/v1/callbacks/" + probeId, "/api/sandbox/v1/send-money/all?companyId=" + probeId,
        "/api/sandbox/v1/bank/collection/single?requestId=" + probeId, "/checkout/cs_" + probeId)) {
      assertThat(gateway.get(path, TestHttp.bearer(token)).status()).as(path).isLessThan(500);
    }

    Map<String, String> pages = new TreeMap<>();
    Result status = platform("status");
    for (String service : List.of("auth-service", "collections-service", "payouts-service", "checkout-service",
        "callback-dispatcher", "gateway")) {
      int port = Ports.declared().stream().filter(p -> p.listener().equals(
          service.equals("gateway") ? "gateway-management" : service)).findFirst().orElseThrow().defaultPort()
          + PORT_OFFSET;
      String url = "http://127.0.0.1:" + port + "/actuator/prometheus";
      assertThat(status.output).as("./platform status prints %s's metrics URL", service).contains(url);
      TestHttp.Response page = new TestHttp("http://127.0.0.1:" + port).get("/actuator/prometheus", Map.of());
      assertThat(page.status()).as(url).isEqualTo(200);
      pages.put(service, page.body());
    }

    Set<String> offered = new TreeSet<>();
    pages.values().forEach(page -> offered.addAll(ObservedMetrics.namesOffered(page)));
    Set<String> used = ObservedMetrics.namesUsed();
    Set<String> missing = new TreeSet<>(used);
    missing.removeAll(offered);
    missing.removeAll(ObservedMetrics.PROMETHEUS_OWN);
    missing.removeAll(ObservedMetrics.LIVE_STACK_ONLY);
    assertThat(missing).as("metrics the alert rules or the dashboard use that no service offers").isEmpty();

    String phone = "254708374149";
    pages.forEach((service, page) -> assertThat(page).as(service + "'s metrics")
        .doesNotContain(probeId, requestId, organisationId, phone, "0708374149"));
    // the gateway times proxied requests by route, never by raw path
    assertThat(pages.get("gateway")).contains("route=\"collections\"").doesNotContain("/api/sandbox/v1/stk/new");
    // timers without client-side percentiles (a quantile series cannot be aggregated across replicas); the payment
    // outcome latency's fixed buckets are the one histogram, for the dashboard's server-side percentile
    pages.forEach((service, page) -> assertThat(page).as(service + "'s metrics").doesNotContain("quantile=\""));
    assertThat(pages.get("collections-service")).contains("lipa_payment_outcome_latency_seconds_bucket{");

    // the public port serves no /actuator path, in any spelling
    for (String target : List.of("/actuator/prometheus", "/actuator/health", "/actuator", "/%61ctuator/prometheus",
        "//actuator/prometheus", "/api/../actuator/prometheus", "/actuator/prometheus/", "/ACTUATOR/prometheus")) {
      RawHttp.Answer answer = RawHttp.send("127.0.0.1", GATEWAY_PORT, "GET", target, Map.of(), null);
      assertThat(answer.status()).as(target).isIn(400, 404);
      assertThat(answer.body()).as(target).doesNotContain("# HELP", "jvm_", "\"UP\"");
    }

    if (!OBSERVE) {
      System.out.println("prometheus is not installed (apt-get install prometheus): ./platform up --observe and "
          + "its series were not checked; the services' own pages were");
      assertThat(System.getenv("CI")).as("CI installs prometheus (.ci/run)").isNullOrEmpty();
      return;
    }
    int prometheusPort = Ports.declared().stream().filter(p -> p.listener().equals("prometheus")).findFirst()
        .orElseThrow().defaultPort() + PORT_OFFSET;
    assertThat(status.output).as("./platform status sees the local Prometheus running")
        .containsPattern("(?m)^prometheus +\\d+ +" + prometheusPort + " +up +http://127.0.0.1:" + prometheusPort);
    TestHttp prometheus = new TestHttp("http://127.0.0.1:" + prometheusPort);
    Set<String> unseen = new TreeSet<>(used);
    unseen.removeAll(ObservedMetrics.LIVE_STACK_ONLY);
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (!unseen.isEmpty() && System.nanoTime() < deadline) {
      for (String name : List.copyOf(unseen)) {
        TestHttp.Response series = prometheus.get("/api/v1/series?match%5B%5D=" + name, Map.of());
        if (series.status() == 200 && !series.json().path("data").isEmpty()) {
          unseen.remove(name);
        }
      }
      if (!unseen.isEmpty()) {
        Thread.sleep(2000);
      }
    }
    assertThat(unseen).as("metrics of the rules and the dashboard the local Prometheus has no series of").isEmpty();
    TestHttp.Response up = prometheus.get("/api/v1/query?query=up", Map.of());
    assertThat(up.json().path("data").path("result").findValuesAsString("component"))
        .as("every service replica is a target, the live stack's too").containsExactlyInAnyOrder("auth-service",
            "callback-dispatcher", "callback-dispatcher-live", "checkout-service", "checkout-service-live",
            "collections-service", "collections-service-live", "gateway", "payouts-service", "payouts-service-live");
    TestHttp.Response rules = prometheus.get("/api/v1/rules", Map.of());
    assertThat(rules.body()).contains("OutboxBacklogGrowing", "CallbacksDying", "ConsumerLagHigh", "ErrorRatioHigh",
        "DeadLettersWaiting");
  }

  /**
   * A merchant with a live key, through the gateway, against the Daraja simulator: an STK push paid by the customer
   * (Daraja's callback through the gateway's /daraja/v1 route) credits the live balance, which pays out by B2C (send
   * money) and B2B (till, paybill), each settled by its Daraja result.
   */
  @Test
  @Order(3)
  void aLiveKeysPushAndPayoutsCompleteAgainstTheDarajaSimulatorThroughTheGateway() throws Exception {
    LiveStackChecks live = live();
    BigDecimal credited = live.collect(1000);

    live.awaitSuccess("send-money", live.sendMoney(LiveStackChecks.PAYING_PHONE, 100));
    live.awaitSuccess("till", live.payTill("600100", 50));
    live.awaitSuccess("paybill", live.payPaybill("600200", "ACC7", 70));

    live.awaitAvailable(credited.subtract(new BigDecimal("220")));
  }

  /**
   * A B2C request whose answer came after the rail's timeout is UNKNOWN, never sent again: with its result lost too,
   * only Transaction Status on its OriginatorConversationID settles it, and the simulator paid it once.
   */
  @Test
  @Order(3)
  void aLivePayoutWhoseAnswerAndResultWereLostIsSettledByTransactionStatus() throws Exception {
    LiveStackChecks live = live();
    BigDecimal credited = live.collect(300);
    long paymentRequestsBefore = live.accepted(LiveStackChecks.B2C);
    long statusQueriesBefore = live.accepted(LiveStackChecks.TRANSACTION_STATUS);

    String payout = live.underFaults("{\"answerAfterMillis\":4000,\"callbacks\":\"NEVER\"}",
        LiveStackChecks.B2C, () -> live.sendMoney(LiveStackChecks.PAYING_PHONE, 120));

    live.awaitSuccess("send-money", payout);
    live.awaitAvailable(credited.subtract(new BigDecimal("120")));
    // how it was settled: Daraja accepted the payment request once (never resent) and a Transaction Status question
    assertThat(live.accepted(LiveStackChecks.B2C) - paymentRequestsBefore)
        .as("B2C payment requests the simulator accepted for payout %s", payout).isEqualTo(1);
    assertThat(live.accepted(LiveStackChecks.TRANSACTION_STATUS))
        .as("Transaction Status queries the simulator accepted").isGreaterThan(statusQueriesBefore);
    // the rail's record of what it sent keeps the payout UNKNOWN (its answer never read) and the question's id
    try (MongoClient mongo = MongoClients.create("mongodb://127.0.0.1:" + ENV.get("STORE_PORT"))) {
      Document sent = mongo.getDatabase("lipa-payouts-live").getCollection("daraja_payout_requests")
          .find(new Document("_id", payout)).first();
      assertThat(sent).as("the Daraja rail's record of payout %s", payout).isNotNull();
      assertThat(sent.getString("state")).as("where payout %s stands with Daraja", payout).isEqualTo("UNKNOWN");
      assertThat(sent.getList("statusConversationIds", String.class))
          .as("Transaction Status questions Daraja acknowledged for payout %s", payout).isNotEmpty();
    }
  }

  /**
   * Daraja never sends the callback of a paid push again: with it lost, the platform's own STK Query (its overdue
   * sweep) settles the push, and the merchant's balance is credited once.
   */
  @Test
  @Order(3)
  void aLivePushWhoseCallbackNeverCameIsSettledByReconciliation() throws Exception {
    LiveStackChecks live = live();
    BigDecimal opening = live.available();
    long queriesBefore = live.accepted(LiveStackChecks.STK_QUERY);

    String push = live.underFaults("{\"callbacks\":\"NEVER\"}", LiveStackChecks.STK_PUSH,
        () -> live.stkPush(LiveStackChecks.PAYING_PHONE, 250));

    live.awaitSuccess("stk", push);
    live.awaitAvailable(opening.add(new BigDecimal("250")));
    // how it was settled: with no callback sent, by an STK Query Daraja answered
    assertThat(live.accepted(LiveStackChecks.STK_QUERY)).as("STK Query requests the simulator accepted")
        .isGreaterThan(queriesBefore);
  }

  /**
   * Issue 17's isolation on the running platform: a sandbox key's token on a live path and a live key's token on a
   * sandbox path are each refused with 403 naming the key's environment, and neither created anything in the
   * environment of its path: a lookup there by its referenceId finds nothing, and the right key then creates that
   * referenceId afresh (a referenceId used before would be answered with a replay of the original).
   */
  @Test
  @Order(3)
  void aKeyOfOneEnvironmentIsRefusedOnTheOthersPathsAndCreatesNothingThere() throws Exception {
    LiveStackChecks live = live();
    Map<String, String> sandboxKey = TestHttp.bearer(token());
    Map<String, String> liveKey = live.bearer();
    String run = UUID.randomUUID().toString().substring(0, 8);
    String sandboxKeysReference = "sandbox-key-on-live-" + run;
    String liveKeysReference = "live-key-on-sandbox-" + run;
    // each body one the environment of its path would accept: had the gateway let it through, it would be created
    String liveBody = LiveStackChecks.stkPushBody(LiveStackChecks.anotherPayingPhone(), 10, sandboxKeysReference);
    String sandboxBody = TestHttp.json(Map.of("description", "Order 46",
        "phoneNumber", LiveStackChecks.anotherPayingPhone(), "amount", 10, "accountReference", "INV46",
        "referenceId", liveKeysReference,
        "callbackUrl", "http://127.0.0.1:" + merchant.getAddress().getPort() + "/callbacks"));

    TestHttp.Response sandboxKeyOnLive = gateway.postJson("/api/v1/stk/new", liveBody, sandboxKey);
    TestHttp.Response liveKeyOnSandbox = gateway.postJson("/api/sandbox/v1/stk/new", sandboxBody, liveKey);

    assertThat(sandboxKeyOnLive.status()).as(sandboxKeyOnLive.body()).isEqualTo(403);
    assertThat(sandboxKeyOnLive.json().path("message").asString()).contains("sandbox key")
        .isEqualTo(Environment.SANDBOX.wrongPathMessage());
    assertThat(liveKeyOnSandbox.status()).as(liveKeyOnSandbox.body()).isEqualTo(403);
    assertThat(liveKeyOnSandbox.json().path("message").asString()).contains("live key")
        .isEqualTo(Environment.LIVE.wrongPathMessage());
    // other spellings of the other environment's path through the gateway: each refused before any service
    for (String target : List.of("/api//v1/stk/new", "/api/v1/%73tk/new", "/api/%76%31/stk/new", "/api/v1/stk/new;x=1",
        "/api/sandbox/%2e%2e/v1/stk/new", "/api/sandbox/../v1/stk/new", "/api/V1/stk/new", "/api/v1/stk/new/")) {
      assertThat(rawPost(GATEWAY_PORT, target, liveBody, sandboxKey).status()).as("POST %s, a sandbox key", target)
          .isIn(400, 403, 404);
    }
    for (String target : List.of("/api/sandbox//v1/stk/new", "/api/%73andbox/v1/stk/new",
        "/api/sandbox/v1/stk/new;x=1", "/api/sandbox/v1/%2e%2e/v1/stk/new", "/api/SANDBOX/v1/stk/new")) {
      assertThat(rawPost(GATEWAY_PORT, target, sandboxBody, liveKey).status()).as("POST %s, a live key", target)
          .isIn(400, 403, 404);
    }
    // the live collections-service called directly, behind the gateway, with the sandbox key's token: it checks again
    RawHttp.Answer direct = rawPost(Integer.parseInt(ENV.get("COLLECTIONS_LIVE_PORT")), "/api/v1/stk/new", liveBody,
        sandboxKey);
    assertThat(direct.status()).as(direct.body()).isEqualTo(403);
    assertThat(direct.body()).contains(Environment.SANDBOX.wrongPathMessage());
    String liveLookup = "/api/v1/stk/single?referenceId=";
    String sandboxLookup = "/api/sandbox/v1/stk/single?referenceId=";
    assertThat(gateway.get(liveLookup + sandboxKeysReference, liveKey).status()).isEqualTo(404);
    assertThat(gateway.get(sandboxLookup + liveKeysReference, sandboxKey).status()).isEqualTo(404);

    BigDecimal opening = live.available();
    TestHttp.Response liveCreated = gateway.postJson("/api/v1/stk/new", liveBody, liveKey);
    TestHttp.Response sandboxCreated = gateway.postJson("/api/sandbox/v1/stk/new", sandboxBody, sandboxKey);
    for (TestHttp.Response created : List.of(liveCreated, sandboxCreated)) {
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      assertThat(created.headers().firstValue(IdempotencyKeys.REPLAYED_HEADER)).as("a replay of an earlier push")
          .isEmpty();
    }
    // the lookups that found nothing find these now, each in its own environment only
    assertThat(gateway.get(liveLookup + sandboxKeysReference, liveKey).status()).isEqualTo(200);
    assertThat(gateway.get(sandboxLookup + liveKeysReference, sandboxKey).status()).isEqualTo(200);
    assertThat(gateway.get(liveLookup + liveKeysReference, liveKey).status()).isEqualTo(404);
    assertThat(gateway.get(sandboxLookup + sandboxKeysReference, sandboxKey).status()).isEqualTo(404);
    // the simulator pays the live push: its credit lands before another test reads the balance
    live.awaitSuccess("stk", liveCreated.json().path("data").path("requestId").asString());
    live.awaitAvailable(opening.add(BigDecimal.TEN));
  }

  /**
   * Issue 16's correlation in real log lines: collections-service writes JSON, and its lines about a payment carry the
   * trace id the gateway returned for it, the organisation and the requestId as fields of their own. The live stack's
   * collections-service is the one that logs an STK push it handled normally (its Daraja rail's "accepted by
   * Daraja"); the sandbox rail logs nothing about a push that went as expected.
   */
  @Test
  @Order(3)
  void collectionsServiceLogsAPushAsJsonWithItsTraceIdOrganisationAndRequestId() throws Exception {
    LiveStackChecks live = live();
    BigDecimal opening = live.available();
    TestHttp.Response created = gateway.postJson("/api/v1/stk/new",
        LiveStackChecks.stkPushBody(LiveStackChecks.anotherPayingPhone(), 30, null), live.bearer());
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String traceId = created.headers().firstValue("X-Trace-Id").orElseThrow();
    String push = created.json().path("data").path("requestId").asString();
    live.awaitSuccess("stk", push);
    live.awaitAvailable(opening.add(new BigDecimal("30")));

    String organisationId = credentials().path("organisationId").asString();
    Path log = VAR.resolve("logs").resolve("collections-service-live.log");
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(jsonLinesMentioning(log, push)).as("%s's lines about push %s", log.getFileName(), push)
            .anySatisfy(line -> {
              assertThat(line.path("service").path("name").asString()).isEqualTo("collections-service");
              assertThat(line.path("traceId").asString()).as("traceId").isEqualTo(traceId);
              assertThat(line.path(LogContext.ORGANISATION).asString()).as("organisation").isEqualTo(organisationId);
              assertThat(line.path(LogContext.REQUEST_ID).asString()).as("requestId").isEqualTo(push);
            }));
  }

  /** A JSON POST as written, its target unnormalised, on a fresh connection. */
  private static RawHttp.Answer rawPost(int port, String target, String body, Map<String, String> bearer) {
    Map<String, String> headers = new HashMap<>(bearer);
    headers.put("Content-Type", "application/json");
    return RawHttp.send("127.0.0.1", port, "POST", target, headers, body);
  }

  /** Every line of the log file that mentions {@code text}, each read as the JSON object it must be. */
  private static List<JsonNode> jsonLinesMentioning(Path log, String text) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readString(log, StandardCharsets.ISO_8859_1).lines().filter(l -> l.contains(text))
        .toList()) {
      JsonNode json = JSON.readTree(line);
      assertThat(json.isObject()).as("a JSON log line: %s", line).isTrue();
      lines.add(json);
    }
    return lines;
  }

  private static LiveStackChecks liveChecks;

  private static synchronized LiveStackChecks live() throws IOException {
    if (liveChecks == null) {
      JsonNode key = LiveStackChecks.issueLiveKey(gateway, credentials().path("organisationId").asString(),
          Files.readString(VAR.resolve("operator-token")).strip());
      TestHttp.Response token = gateway.postJson("/api/v1/get-token", TestHttp.json(Map.of(
          "apiKey", key.path("apiKey").asString(), "apiSecret", key.path("apiSecret").asString())), Map.of());
      assertThat(token.status()).as(token.body()).isEqualTo(200);
      String accessToken = token.json().path("data").path("access_token").asString();
      issuedTokens.add(accessToken);
      int simulatorPort = Ports.declared().stream().filter(p -> p.listener().equals("daraja-simulator")).findFirst()
          .orElseThrow().defaultPort() + PORT_OFFSET;
      liveChecks = new LiveStackChecks(gateway, "http://127.0.0.1:" + simulatorPort, accessToken);
    }
    return liveChecks;
  }

  @Test
  @Order(4)
  void upTwiceStartsNothingTwice() throws Exception {
    Map<String, String> before = pids();
    Result again = platform("up");
    assertThat(again.exitCode).isZero();
    assertThat(again.output).contains("already running");
    assertThat(pids()).isEqualTo(before);
  }

  @Test
  @Order(5)
  void dataSurvivesDownThenUp() throws Exception {
    String organisationId = credentials().path("organisationId").asString();
    assertThat(platform("down").exitCode).isZero();
    assertThat(platform("up").exitCode).isZero();
    assertThat(credentials().path("organisationId").asString()).isEqualTo(organisationId);
    // the smoke bench ran in between: page wide enough to reach the first push
    TestHttp.Response list = gateway.get("/api/sandbox/v1/stk/all?size=500", TestHttp.bearer(token()));
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.json().path("data").findValuesAsString("uuid")).contains(requestId);
  }

  @Test
  @Order(6)
  void everyEndpointThatTakesAnIdKeepsOrganisationsApart() throws IOException {
    String operatorToken = Files.readString(VAR.resolve("operator-token")).strip();
    String callbackUrl = "http://127.0.0.1:" + merchant.getAddress().getPort() + "/callbacks";

    new TenancyMatrix(gateway, operatorToken, callbackUrl).run();
  }

  @Test
  @Order(7)
  void keepsEveryFileUnderVarToItsOwnerAndTheMasterKeyOffEveryCommandLine() throws Exception {
    assertThat(Files.getPosixFilePermissions(VAR.resolve("master-key")))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    List<String> open = new ArrayList<>();
    Set<PosixFilePermission> others = EnumSet.complementOf(EnumSet.of(PosixFilePermission.OWNER_READ,
        PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));
    // the running platform removes files as it goes (the store's write-ahead segments, rotated logs): one that is
    // gone by the time it is read had nothing left to expose
    Files.walkFileTree(VAR, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
        return check(dir);
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        return attributes.isSymbolicLink() ? FileVisitResult.CONTINUE : check(file);
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
        if (failure instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw failure;
      }

      private FileVisitResult check(Path path) throws IOException {
        try {
          Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
          if (!Collections.disjoint(permissions, others)) {
            open.add(VAR.relativize(path) + " " + PosixFilePermissions.toString(permissions));
          }
        } catch (NoSuchFileException gone) {
          // removed since it was listed
        }
        return FileVisitResult.CONTINUE;
      }
    });
    assertThat(open).as("files and directories under var/ that others may use").isEmpty();

    String key = Files.readString(VAR.resolve("master-key")).strip();
    assertThat(key).matches("k1:[A-Za-z0-9+/]{43}=");
    String keyBytes = key.substring("k1:".length());
    for (Map.Entry<String, String> pid : pids().entrySet()) {
      Path cmdline = Path.of("/proc", pid.getValue(), "cmdline");
      if (Files.exists(cmdline)) {
        assertThat(Files.readString(cmdline)).as(pid.getKey() + "'s command line").doesNotContain(keyBytes);
      }
    }
  }

  @Test
  @Order(8)
  void storesTheTokenSigningKeyAndCallbackSecretsSealedUnderTheMasterKey() {
    try (MongoClient mongo = MongoClients.create("mongodb://127.0.0.1:" + ENV.get("STORE_PORT"))) {
      List<Document> keys = mongo.getDatabase("lipa-auth").getCollection("signing_keys").find()
          .into(new ArrayList<>());
      assertThat(keys).isNotEmpty().allSatisfy(key -> {
        assertThat(key).doesNotContainKey("privateJwk");
        assertThat(key.getString("privateKey")).startsWith("lipa-sealed:v1:k1:");
      });
      // the smoke bench's callbacks were signed, each organisation's secret made and sealed on first use
      List<Document> secrets = mongo.getDatabase("lipa-dispatcher").getCollection("signing_secrets").find()
          .into(new ArrayList<>());
      assertThat(secrets).isNotEmpty().allSatisfy(secret ->
          assertThat(secret.getString("current")).startsWith("lipa-sealed:v1:k1:"));
    }
  }

  @Test
  @Order(9)
  void failedTokenRequestsFromOneClientNeverLockOutAnotherThroughTheGateway() throws IOException {
    // every client here is on loopback: 127.0.0.2 is the attacker, 127.0.0.3 the merchant; the gateway tells
    // auth-service which client is which, and no client can tell it otherwise
    JsonNode credentials = credentials();
    String wrong = TestHttp.json(Map.of("apiKey", credentials.path("apiKey").asString(), "apiSecret", "wrong"));
    String right = TestHttp.json(Map.of("apiKey", credentials.path("apiKey").asString(),
        "apiSecret", credentials.path("apiSecret").asString()));
    List<Integer> attacker = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      attacker.add(RawHttp.send("127.0.0.2", "127.0.0.1", GATEWAY_PORT, "POST", "/api/v1/get-token", Map.of(),
          wrong).status());
    }
    assertThat(attacker).startsWith(401, 401, 401, 401, 401).endsWith(429, 429, 429);

    assertThat(RawHttp.send("127.0.0.2", "127.0.0.1", GATEWAY_PORT, "POST", "/api/v1/get-token",
        Map.of("X-Forwarded-For", "127.0.0.9"), right).status()).as("a spoofed address changes nothing").isEqualTo(429);
    assertThat(RawHttp.send("127.0.0.3", "127.0.0.1", GATEWAY_PORT, "POST", "/api/v1/get-token", Map.of(), right)
        .status()).as("the merchant, from its own address").isEqualTo(200);
  }

  @Test
  @Order(10)
  void everyComponentLogsToItsOwnFileAndWhatItsJvmPrintsStaysApart() throws IOException {
    Path logs = VAR.resolve("logs");
    List<String> services = List.of("auth-service", "collections-service", "payouts-service", "checkout-service",
        "callback-dispatcher", "gateway");
    // Logback opens the file as it starts, even the broker's, which logs at WARN only
    assertThat(logs.resolve("kafka.log")).isRegularFile();
    for (String component : Stream.concat(Stream.of("store"), services.stream()).toList()) {
      assertThat(logs.resolve(component + ".log")).as(component).isNotEmptyFile();
      // stdout and stderr hold a start line, a banner or a JVM warning, never a log line: a line is written once
      // (kafka.out is left out: it also holds what the one-off storage formatting printed on its console)
      assertThat(Files.readString(logs.resolve(component + ".out"))).as(component + ".out")
          .doesNotContainPattern("(?m)^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\S* .*(INFO|WARN|ERROR) ");
    }
    assertThat(Files.readString(logs.resolve("store.out"))).contains("store ready on ");
    // the access log stays: one line per request, in the gateway's log
    assertThat(Files.readString(logs.resolve("gateway.log"))).contains("POST /api/sandbox/v1/stk/new 201 ");
    assertThat(Files.readString(logs.resolve("seed.log"))).contains("sandbox credentials still valid");
  }

  /**
   * Issue 16's hygiene rule, over every log file of every process and every span they exported: after real traffic
   * (tokens issued, STK pushes, a hosted checkout paid by card with a test card number, lists filtered by phone
   * number), no line holds the seeded API secret, an issued access or refresh token, the operator token, the master
   * key, the test card number or a full phone number. A finding names the file, the line and what it held, never the
   * value itself.
   */
  @Test
  @Order(11)
  void noLogLineNorSpanHoldsASecretATokenACardNumberOrAFullPhoneNumber() throws Exception {
    JsonNode credentials = credentials();
    TestHttp.Response issued = gateway.postJson("/api/v1/get-token", TestHttp.json(Map.of(
        "apiKey", credentials.path("apiKey").asString(),
        "apiSecret", credentials.path("apiSecret").asString())), Map.of());
    assertThat(issued.status()).isEqualTo(200);
    String refreshToken = issued.json().path("data").path("refresh_token").asString();
    String token = issued.json().path("data").path("access_token").asString();
    issuedTokens.add(token);
    String callbackUrl = "http://127.0.0.1:" + merchant.getAddress().getPort() + "/callbacks";
    // a hosted checkout paid by card, with the customer's phone number on the session
    TestHttp.Response session = gateway.postJson("/api/sandbox/v1/checkout-sessions", """
        {"amount":1500,"currency":"KES","description":"Order 44","successUrl":"https://shop.example/ok",
         "cancelUrl":"https://shop.example/cancel","paymentMethods":["CARD","MPESA_STK"],"externalReference":"ORD-44",
         "customerPhone":"+254712345678","callbackUrl":"%s"}""".formatted(callbackUrl), TestHttp.bearer(token));
    assertThat(session.status()).as(session.body()).isEqualTo(201);
    TestHttp.Response paid = gateway.postJson("/checkout/" + session.json().path("checkoutRef").asString() + "/card",
        "{\"cardNumber\":\"4242424242424242\",\"expiry\":\"12/39\",\"cvc\":\"123\"}", Map.of());
    assertThat(paid.status()).as(paid.body()).isEqualTo(200);
    assertThat(paid.json().path("status").asString()).isEqualTo("SUCCEEDED");
    // an STK push, and lists filtered by phone number (in the query string, where a log could pick it up)
    assertThat(gateway.postJson("/api/sandbox/v1/stk/new", TestHttp.json(Map.of("description", "Order 45",
        "phoneNumber", "254708374149", "amount", 20, "accountReference", "INV45", "callbackUrl", callbackUrl)),
        TestHttp.bearer(token)).status()).isEqualTo(201);
    assertThat(gateway.get("/api/sandbox/v1/stk/all?phoneNumber=254708374149", TestHttp.bearer(token)).status())
        .isLessThan(500);
    assertThat(gateway.get("/api/sandbox/v1/stk/all?phoneNumber=0708374149", TestHttp.bearer(token)).status())
        .isLessThan(500);
    assertThat(gateway.postJson("/api/v1/refresh-token", TestHttp.json(Map.of("refresh_token", refreshToken)),
        Map.of()).status()).isLessThan(500);
    // what the services log and export for all of it has had time to reach the files and the receiver
    Thread.sleep(8000);

    Map<String, String> secrets = new LinkedHashMap<>();
    secrets.put("the sandbox API secret", credentials.path("apiSecret").asString());
    secrets.put("a refresh token", refreshToken);
    secrets.put("the operator token", Files.readString(VAR.resolve("operator-token")).strip());
    secrets.put("the master key", Files.readString(VAR.resolve("master-key")).strip().substring("k1:".length()));
    secrets.put("the test card number", "4242424242424242");
    secrets.put("the test card number, grouped", "4242 4242 4242 4242");
    secrets.put("a full phone number (254708374149)", "254708374149");
    secrets.put("a full phone number (0708374149)", "0708374149");
    secrets.put("a full phone number (254712345678)", "254712345678");
    int n = 0;
    for (String issuedToken : issuedTokens) {
      secrets.put("access token #" + ++n, issuedToken);
      // a JWT's signature alone is enough to be a leak
      secrets.put("access token #" + n + "'s signature", issuedToken.substring(issuedToken.lastIndexOf('.') + 1));
    }
    secrets.values().forEach(value -> assertThat(value).as("a secret to look for").hasSizeGreaterThanOrEqualTo(10));

    List<Path> files;
    try (var walk = Files.walk(VAR.resolve("logs"))) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    assertThat(files).as("log files").isNotEmpty();
    // the search itself finds a planted line, and names its file and line
    Path planted = Files.createTempFile(VAR, "planted", ".log");
    Files.writeString(planted, "a line\n{\"message\":\"card " + secrets.get("the test card number") + "\"}\n");
    assertThat(findings(List.of(planted), secrets)).containsExactly(
        VAR.relativize(planted) + ":2 holds the test card number");
    Files.delete(planted);

    List<String> findings = findings(files, secrets);
    for (OtlpReceiver.ReceivedSpan span : traces.spans()) {
      for (Map.Entry<String, String> secret : secrets.entrySet()) {
        if (span.name().contains(secret.getValue())
            || span.attributes().values().stream().anyMatch(v -> v.contains(secret.getValue()))) {
          findings.add("span " + span.service() + " \"" + span.name() + "\" (attributes " + span.attributes().keySet()
              + ") holds " + secret.getKey());
        }
      }
    }
    assertThat(traces.spans()).as("spans exported").isNotEmpty();
    assertThat(findings).as("secrets, tokens, card numbers and phone numbers in %d log files and %d spans",
        files.size(), traces.spans().size()).isEmpty();
  }

  /**
   * Issue 16's event contract over everything this run produced: every record of every topic topics.yaml declares,
   * read from the beginning on the system test's broker, is an event of the AsyncAPI document on its channel and valid
   * against its payload schema (common's {@link EventContracts}). The families the run drove are there, in both
   * environments, so the check cannot pass on empty topics.
   */
  @Test
  @Order(12)
  void everyEventTheRunProducedIsAnEventOfTheAsyncApiDocument() {
    List<String> topics = TopicDeclarations.read(ROOT.resolve("infra/deploy/helm/lipa/topics.yaml")).topics()
        .stream().map(TopicDeclarations.Topic::name).toList();

    Map<String, Set<String>> types = new TreeMap<>();
    List<String> violations = new ArrayList<>();
    int events = 0;
    for (ConsumerRecord<String, String> record : everyRecordOf(topics)) {
      if (record.value() == null) {
        continue; // a tombstone of the compacted organisations topic: no event
      }
      events++;
      List<String> broken = EventContracts.document().violations(record.topic(), record.value());
      if (!broken.isEmpty()) {
        violations.add(record.topic() + "-" + record.partition() + "@" + record.offset() + ": " + broken
            + "\n    the event: " + record.value());
        continue;
      }
      types.computeIfAbsent(record.topic(), topic -> new TreeSet<>())
          .add(JSON.readTree(record.value()).path("type").asString(""));
    }

    // the conforming events of each topic: what the run drove is there
    assertThat(types).as("topics with events").containsKeys("payments.collections.v1", "payments.payouts.v1",
        "payments.checkout.v1", "payments.organisations.v1", "payments.callbacks.v1", "live.payments.collections.v1",
        "live.payments.payouts.v1", "live.payments.callbacks.v1");
    assertThat(types.get("payments.collections.v1")).as("STK events").contains("stk.accepted", "stk.succeeded");
    assertThat(types.get("live.payments.collections.v1")).as("live STK events")
        .contains("stk.accepted", "stk.succeeded");
    assertThat(types.get("payments.payouts.v1")).as("payout events (the tenancy matrix's)")
        .contains("sendmoney.accepted", "till.accepted", "paybill.accepted");
    assertThat(types.get("live.payments.payouts.v1")).as("live payout events")
        .contains("sendmoney.succeeded", "till.succeeded", "paybill.succeeded");
    assertThat(types.get("payments.callbacks.v1")).as("callback requests").contains("callback.requested");
    assertThat(types.get("live.payments.callbacks.v1")).as("live callback requests").contains("callback.requested");
    assertThat(types.get("payments.checkout.v1")).as("checkout events").contains("checkout.created");
    assertThat(types.get("payments.organisations.v1")).as("organisation profiles").contains("organisation.upserted");
    assertThat(violations).as("events of %d that break %s", events, EventContracts.DOCUMENT).isEmpty();
  }

  /** Every record on these topics, from the beginning of each partition to its end offset when asked. */
  private static List<ConsumerRecord<String, String>> everyRecordOf(List<String> topics) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + ENV.get("KAFKA_PORT"));
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    // assigned, no consumer group: nothing is committed, and the platform's groups are untouched
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties)) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : topics) {
        consumer.partitionsFor(topic, Duration.ofSeconds(30))
            .forEach(partition -> partitions.add(new TopicPartition(topic, partition.partition())));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
        assertThat(System.nanoTime()).as("every record read within 2 minutes").isLessThan(deadline);
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
    }
    return records;
  }

  /** Every line of these files that holds one of the secrets: "file:line holds what", never the value itself. */
  private static List<String> findings(List<Path> files, Map<String, String> secrets) throws IOException {
    List<String> findings = new ArrayList<>();
    for (Path file : files) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
      for (int i = 0; i < lines.size(); i++) {
        for (Map.Entry<String, String> secret : secrets.entrySet()) {
          if (lines.get(i).contains(secret.getValue())) {
            findings.add(VAR.relativize(file) + ":" + (i + 1) + " holds " + secret.getKey());
          }
        }
      }
    }
    return findings;
  }

  private static String token() throws IOException {
    JsonNode credentials = credentials();
    TestHttp.Response response = gateway.postJson("/api/v1/get-token", TestHttp.json(Map.of(
        "apiKey", credentials.path("apiKey").asString(),
        "apiSecret", credentials.path("apiSecret").asString())), Map.of());
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    String token = response.json().path("data").path("access_token").asString();
    issuedTokens.add(token);
    return token;
  }

  private static JsonNode credentials() throws IOException {
    String text = Files.readString(VAR.resolve("sandbox-credentials.json"));
    return new TestHttp.Response(200, null, text).json();
  }

  private static Map<String, String> pids() throws IOException {
    Map<String, String> pids = new HashMap<>();
    try (var files = Files.list(VAR.resolve("run"))) {
      for (Path file : files.toList()) {
        pids.put(file.getFileName().toString(), Files.readString(file).strip());
      }
    }
    return pids;
  }

  private static boolean portOpen(int port) {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private record Result(int exitCode, String output) {
  }

  private static Result platform(String... command) throws Exception {
    List<String> line = new ArrayList<>(List.of(ROOT.resolve("platform").toString()));
    line.addAll(List.of(command));
    ProcessBuilder builder = new ProcessBuilder(line)
        .directory(ROOT.toFile())
        .redirectErrorStream(true);
    builder.environment().putAll(ENV);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean finished = process.waitFor(Duration.ofMinutes(5).toSeconds(), TimeUnit.SECONDS);
    System.out.println("./platform " + String.join(" ", command) + ":\n" + output);
    return new Result(finished ? process.exitValue() : -1, output);
  }
}
