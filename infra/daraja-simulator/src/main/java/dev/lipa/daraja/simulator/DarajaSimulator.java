package dev.lipa.daraja.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A faithful Safaricom M-Pesa Daraja, written from the public documentation (docs/daraja/README.md), as a real HTTP
 * server on the loopback address: OAuth, STK push and query, B2C v3, B2B, Transaction Status, Account Balance and
 * Reversal, with Daraja's validation errors and error body, results posted to the registered CallBackURL/ResultURL in
 * Daraja's shapes, a test-only certificate to decrypt the SecurityCredential, and the {@link Faults} a test sets.
 *
 * <p>It shares no code with the connector, on purpose: each is checked against the documentation's example bodies on
 * its own.
 */
public final class DarajaSimulator implements AutoCloseable {

  /** The app, shortcode and initiator every simulator knows from the start (tests add their own). */
  public static final String CONSUMER_KEY = "sim-consumer-key";
  public static final String CONSUMER_SECRET = "sim-consumer-secret";
  /**
   * A second app, for the payouts of a platform whose collections use the first: a token generated for an app
   * invalidates its earlier ones, so two services sharing one app would refuse each other's requests.
   */
  public static final String PAYOUTS_CONSUMER_KEY = "sim-payouts-consumer-key";
  public static final String PAYOUTS_CONSUMER_SECRET = "sim-payouts-consumer-secret";
  public static final String SHORTCODE = "174379";
  /** The sandbox's published Lipa na M-Pesa Online passkey of shortcode 174379 (its Password example decodes to it). */
  public static final String PASSKEY = "bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919";
  public static final String INITIATOR = "testapi";
  public static final String INITIATOR_PASSWORD = "Sim-initiator-password-1";

  /** The phone numbers whose STK prompt, and the receivers whose payout, end with a given result code. */
  private static final ZoneId NAIROBI = ZoneId.of("Africa/Nairobi");
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuuMMddHHmmss", Locale.ROOT);
  private static final DateTimeFormatter B2C_TIME = DateTimeFormatter.ofPattern("dd.MM.uuuu HH:mm:ss", Locale.ROOT);
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuuMMdd", Locale.ROOT);
  private static final String MSISDN = "254[17][0-9]{8}";
  private static final Logger log = LoggerFactory.getLogger(DarajaSimulator.class);

  static final JsonMapper JSON = JsonMapper.builder().build();

  /** A request the simulator received, for tests to count and inspect. */
  public record Received(String method, String path, String body, Instant at) {
  }

  /** A callback or result the simulator posted (or tried to), for tests to inspect. */
  public record Posted(URI url, String body, int status, Instant at) {
  }

  private record App(String key, String secret) {
  }

  private record Token(String app, Instant expiresAt) {
  }

  /** An STK push: decided when the customer "answers", at {@code decidedAt}. */
  private record Push(String merchantRequestId, String checkoutRequestId, String shortcode, String phone,
      long amount, String resultCode, String receipt, Instant decidedAt, URI callbackUrl) {
  }

  /** A transaction in M-Pesa's books: a payout, a reversal, or a paid push (what Transaction Status finds). */
  private record Booked(String kind, String originatorConversationId, String conversationId, String receipt,
      String shortcode, String party, long amount, String resultCode, String status, Instant at) {
  }

  private final Faults faults = new Faults();
  private final SimulatorControl control = new SimulatorControl(this);
  private final TestCertificate certificate = TestCertificate.load();
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final AtomicLong sequence = new AtomicLong(1000);
  private final Map<String, App> apps = new ConcurrentHashMap<>();
  private final Map<String, Token> tokens = new ConcurrentHashMap<>();
  private final Map<String, String> passkeys = new ConcurrentHashMap<>();
  private final Map<String, String> initiators = new ConcurrentHashMap<>();
  private final Map<String, String> stkScript = new ConcurrentHashMap<>();
  private final Map<String, String> payoutScript = new ConcurrentHashMap<>();
  private final Map<String, Push> pushes = new ConcurrentHashMap<>();
  private final Map<String, Booked> byOriginator = new ConcurrentHashMap<>();
  private final Map<String, Booked> byReceipt = new ConcurrentHashMap<>();
  private final Set<String> reversed = ConcurrentHashMap.newKeySet();
  private final Map<String, BigDecimal> utility = new ConcurrentHashMap<>();
  private final Map<String, BigDecimal> working = new ConcurrentHashMap<>();
  private final List<Received> received = new CopyOnWriteArrayList<>();
  /** Per API path, how many requests were answered 2xx: accepted (or, delayed by a fault, processed to be). */
  private final Map<String, LongAdder> accepted = new ConcurrentHashMap<>();
  private final List<Posted> posted = new CopyOnWriteArrayList<>();
  private final HttpServer server;
  private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, r -> {
    Thread t = new Thread(r, "daraja-simulator-callbacks");
    t.setDaemon(true);
    return t;
  });
  private final HttpClient callbackClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();

  private DarajaSimulator(int port, Clock clock) throws IOException {
    this.clock = clock;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    server.createContext("/", this::handle);
    server.setExecutor(handlers);
    registerApp(CONSUMER_KEY, CONSUMER_SECRET);
    registerApp(PAYOUTS_CONSUMER_KEY, PAYOUTS_CONSUMER_SECRET);
    registerShortcode(SHORTCODE, PASSKEY, new BigDecimal("1000000"));
    registerInitiator(INITIATOR, INITIATOR_PASSWORD);
    server.start();
    log.info("Daraja simulator listening on {}", baseUrl());
  }

  /** A simulator on a free loopback port. */
  public static DarajaSimulator start() throws IOException {
    return new DarajaSimulator(0, Clock.systemUTC());
  }

  /** A simulator on the given loopback port (0: any free one). */
  public static DarajaSimulator start(int port) throws IOException {
    return new DarajaSimulator(port, Clock.systemUTC());
  }

  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public Faults faults() {
    return faults;
  }

  public TestCertificate certificate() {
    return certificate;
  }

  /** A Daraja app (consumer key and secret) the OAuth endpoint accepts. */
  public DarajaSimulator registerApp(String key, String secret) {
    apps.put(key, new App(key, secret));
    return this;
  }

  /** A shortcode with its passkey and the opening balance of its utility account. */
  public DarajaSimulator registerShortcode(String shortcode, String passkey, BigDecimal utilityBalance) {
    passkeys.put(shortcode, passkey);
    utility.put(shortcode, utilityBalance);
    working.put(shortcode, BigDecimal.ZERO);
    return this;
  }

  /** An API initiator and the password its security credential must decrypt to. */
  public DarajaSimulator registerInitiator(String name, String password) {
    initiators.put(name, password);
    return this;
  }

  /** The result code the customer with this phone gives to STK prompts (0 paid unless scripted). */
  public DarajaSimulator stkResult(String phone, String resultCode) {
    stkScript.put(phone, resultCode);
    return this;
  }

  /** The result code of payouts to this receiver (phone, paybill or till; 0 paid unless scripted). */
  public DarajaSimulator payoutResult(String receiver, String resultCode) {
    payoutScript.put(receiver, resultCode);
    return this;
  }

  /** The utility account's balance of a shortcode. */
  public BigDecimal utilityBalance(String shortcode) {
    return utility.getOrDefault(shortcode, BigDecimal.ZERO);
  }

  /** Every request received on a path, oldest first. */
  public List<Received> received(String path) {
    return received.stream().filter(r -> r.path().equals(path)).toList();
  }

  /** Every callback or result posted (or attempted) to a URL, oldest first. */
  public List<Posted> posted(URI url) {
    return posted.stream().filter(p -> p.url().equals(url)).toList();
  }

  /** Every callback or result posted (or attempted), oldest first. */
  public List<Posted> posted() {
    return List.copyOf(posted);
  }

  /** Makes every token issued so far expired (as if an hour had passed). */
  public void expireTokens() {
    tokens.replaceAll((k, t) -> new Token(t.app(), Instant.EPOCH));
  }

  /**
   * Clears the faults, the journal and its counts, the scripts and the tokens; keeps apps, shortcodes, initiators and
   * books.
   */
  public void reset() {
    faults.reset();
    received.clear();
    accepted.clear();
    posted.clear();
    stkScript.clear();
    payoutScript.clear();
    tokens.clear();
  }

  @Override
  public void close() {
    server.stop(0);
    scheduler.shutdownNow();
    handlers.shutdownNow();
    callbackClient.close();
  }

  // ---------------------------------------------------------------------------------------------------------- routing

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      String body = readBody(exchange.getRequestBody());
      received.add(new Received(exchange.getRequestMethod(), path, body, clock.instant()));
      Answer answer = route(exchange, path, body);
      if (answer.status() / 100 == 2 && !path.startsWith(SimulatorControl.PREFIX)) {
        accepted.computeIfAbsent(path, p -> new LongAdder()).increment();
      }
      // what was asked and answered, never the body (it holds passwords and security credentials)
      log.info("{} {} -> {} {}", exchange.getRequestMethod(), path, answer.status(),
          answer.body() == null ? "" : answer.body().path("OriginatorConversationID").asString(
              answer.body().path("CheckoutRequestID").asString(answer.body().path("errorCode").asString(""))));
      Duration delay = faults.answerDelay;
      // the delay is Daraja's: neither OAuth nor the simulator's own control API is slowed by it
      if (!path.startsWith("/oauth/") && !path.startsWith(SimulatorControl.PREFIX) && !delay.isZero()) {
        sleep(delay); // processed already: the client that gives up now leaves a request that was received
      }
      byte[] bytes = JSON.writeValueAsBytes(answer.body());
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(answer.status(), bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (IOException | RuntimeException e) {
      log.debug("Daraja simulator: exchange ended early: {}", e.toString());
    }
  }

  /** An HTTP answer. */
  private record Answer(int status, JsonNode body) {
  }

  private Answer route(HttpExchange exchange, String path, String body) {
    if (path.startsWith(SimulatorControl.PREFIX)) {
      JsonNode json;
      try {
        json = body.isBlank() ? null : JSON.readTree(body);
      } catch (JacksonException e) {
        json = null;
      }
      SimulatorControl.Outcome outcome = control.handle(exchange.getRequestMethod(), path, json);
      return new Answer(outcome.status(), JSON.valueToTree(outcome.body()));
    }
    if (path.equals("/oauth/v1/generate")) {
      if (!exchange.getRequestMethod().equals("GET")) {
        return error(405, "405.001", "Method Not Allowed");
      }
      return oauth(exchange);
    }
    Handler handler = switch (path) {
      case "/mpesa/stkpush/v1/processrequest" -> this::stkPush;
      case "/mpesa/stkpushquery/v1/query" -> this::stkQuery;
      case "/mpesa/b2c/v3/paymentrequest" -> this::b2c;
      case "/mpesa/b2b/v1/paymentrequest" -> this::b2b;
      case "/mpesa/transactionstatus/v1/query" -> this::transactionStatus;
      case "/mpesa/accountbalance/v1/query" -> this::accountBalance;
      case "/mpesa/reversal/v1/request" -> this::reversal;
      default -> null;
    };
    if (handler == null) {
      return error(404, "404.001.01", "Resource not found");
    }
    if (!exchange.getRequestMethod().equals("POST")) {
      return error(405, "405.001", "Method Not Allowed");
    }
    if (!validToken(exchange.getRequestHeaders().getFirst("Authorization"))) {
      return error(401, "404.001.03", "Invalid Access Token");
    }
    if (faults.spikeArrest) {
      return error(faults.spikeArrestStatus, "500.003.02", "Error Occurred: Spike Arrest Violation");
    }
    JsonNode json;
    try {
      json = body.isBlank() ? null : JSON.readTree(body);
    } catch (JacksonException e) {
      json = null;
    }
    if (json == null || !json.isObject()) {
      return error(400, "400.002.05", "Invalid Request Payload");
    }
    try {
      return handler.handle((ObjectNode) json);
    } catch (BadRequest e) {
      return error(e.status, e.code, e.getMessage());
    }
  }

  @FunctionalInterface
  private interface Handler {
    Answer handle(ObjectNode body) throws BadRequest;
  }

  /** Daraja's refusal of a request, with its error body. */
  private static final class BadRequest extends Exception {
    final int status;
    final String code;

    BadRequest(int status, String code, String message) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
    }

    static BadRequest invalid(String field) {
      return new BadRequest(400, "400.002.02", "Bad Request - Invalid " + field);
    }
  }

  // ------------------------------------------------------------------------------------------------------------ OAuth

  private Answer oauth(HttpExchange exchange) {
    String query = Objects.requireNonNullElse(exchange.getRequestURI().getRawQuery(), "");
    if (!List.of(query.split("&")).contains("grant_type=client_credentials")) {
      return error(400, "400.008.02", "Invalid grant type passed");
    }
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    if (authorization == null || !authorization.startsWith("Basic ")) {
      return error(400, "400.008.01", "Invalid Authentication passed");
    }
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return error(400, "400.008.01", "Invalid Authentication passed");
    }
    int colon = decoded.indexOf(':');
    App app = colon < 0 ? null : apps.get(decoded.substring(0, colon));
    if (app == null || !app.secret().equals(decoded.substring(colon + 1))) {
      return error(400, "400.008.01", "Invalid Authentication passed");
    }
    // a new token invalidates the app's earlier ones, as the portal's FAQ says
    tokens.entrySet().removeIf(e -> e.getValue().app().equals(app.key()));
    String token = randomAlphanumeric(28);
    long lifetime = faults.tokenLifetimeSeconds;
    tokens.put(token, new Token(app.key(), clock.instant().plusSeconds(lifetime)));
    return new Answer(200, JSON.createObjectNode()
        .put("access_token", token)
        .put("expires_in", Long.toString(lifetime)));
  }

  private boolean validToken(String authorization) {
    if (authorization == null || !authorization.startsWith("Bearer ")) {
      return false;
    }
    Token t = tokens.get(authorization.substring(7).strip());
    return t != null && clock.instant().isBefore(t.expiresAt());
  }

  // -------------------------------------------------------------------------------------------------------------- STK

  private Answer stkPush(ObjectNode b) throws BadRequest {
    String shortcode = digits(b, "BusinessShortCode", 5, 9);
    String passkey = passkeys.get(shortcode);
    if (passkey == null) {
      throw BadRequest.invalid("BusinessShortCode");
    }
    String timestamp = timestamp(b);
    String type = string(b, "TransactionType");
    if (!Set.of("CustomerPayBillOnline", "CustomerBuyGoodsOnline").contains(type)) {
      throw BadRequest.invalid("TransactionType");
    }
    long amount = wholeAmount(b, 1);
    msisdn(b, "PartyA"); // the payer; the prompt goes to PhoneNumber, which may differ
    String partyB = digits(b, "PartyB", 5, 9);
    String phone = msisdn(b, "PhoneNumber");
    URI callback = url(b, "CallBackURL");
    String reference = string(b, "AccountReference");
    if (reference.isEmpty() || reference.length() > 12) {
      throw BadRequest.invalid("AccountReference");
    }
    if (b.has("TransactionDesc") && (scalar(b.get("TransactionDesc")) == null
        || scalar(b.get("TransactionDesc")).length() > 13)) {
      throw BadRequest.invalid("TransactionDesc");
    }
    if (!password(shortcode, passkey, timestamp).equals(scalar(b.get("Password")))) {
      return error(500, "500.001.1001", "Wrong credentials");
    }
    Instant now = clock.instant();
    boolean busy = pushes.values().stream().anyMatch(p -> p.phone().equals(phone) && now.isBefore(p.decidedAt()));
    if (busy) {
      return error(500, "500.001.1001",
          "Unable to lock subscriber, a transaction is already in process for the current subscriber");
    }
    String code = stkScript.getOrDefault(phone, "0");
    if (type.equals("CustomerPayBillOnline") && !partyB.equals(shortcode)) {
      code = "2028"; // a paybill push pays the shortcode itself
    }
    String merchantRequestId = random.nextInt(10000, 99999) + "-" + random.nextInt(1000000, 99999999) + "-1";
    String checkoutRequestId = "ws_CO_" + TIMESTAMP.format(now.atZone(NAIROBI)) + sequence.incrementAndGet();
    String receipt = "0".equals(code) ? receipt() : null;
    Push push = new Push(merchantRequestId, checkoutRequestId, shortcode, phone, amount, code, receipt,
        now.plus(faults.customerDelay), callback);
    pushes.put(checkoutRequestId, push);
    if (receipt != null) {
      utility.merge(shortcode, BigDecimal.valueOf(amount), BigDecimal::add);
      book(new Booked("C2B", merchantRequestId, checkoutRequestId, receipt, shortcode, phone, amount, "0",
          "Completed", now));
    }
    post(callback, stkCallback(push), faults.customerDelay);
    return new Answer(200, JSON.createObjectNode()
        .put("MerchantRequestID", merchantRequestId)
        .put("CheckoutRequestID", checkoutRequestId)
        .put("ResponseCode", "0")
        .put("ResponseDescription", "Success. Request accepted for processing")
        .put("CustomerMessage", "Success. Request accepted for processing"));
  }

  private ObjectNode stkCallback(Push p) {
    ObjectNode cb = JSON.createObjectNode()
        .put("MerchantRequestID", p.merchantRequestId())
        .put("CheckoutRequestID", p.checkoutRequestId())
        .put("ResultCode", Integer.parseInt(p.resultCode()))
        .put("ResultDesc", stkDescription(p.resultCode()));
    if (p.receipt() != null) {
      ArrayNode items = cb.putObject("CallbackMetadata").putArray("Item");
      items.addObject().put("Name", "Amount").put("Value", BigDecimal.valueOf(p.amount()).setScale(2));
      items.addObject().put("Name", "MpesaReceiptNumber").put("Value", p.receipt());
      items.addObject().put("Name", "TransactionDate")
          .put("Value", Long.parseLong(TIMESTAMP.format(p.decidedAt().atZone(NAIROBI))));
      items.addObject().put("Name", "PhoneNumber").put("Value", Long.parseLong(p.phone()));
    }
    ObjectNode root = JSON.createObjectNode();
    root.putObject("Body").set("stkCallback", cb);
    return root;
  }

  private Answer stkQuery(ObjectNode b) throws BadRequest {
    String shortcode = digits(b, "BusinessShortCode", 5, 9);
    String passkey = passkeys.get(shortcode);
    if (passkey == null) {
      throw BadRequest.invalid("BusinessShortCode");
    }
    String timestamp = timestamp(b);
    if (!password(shortcode, passkey, timestamp).equals(scalar(b.get("Password")))) {
      return error(500, "500.001.1001", "Wrong credentials");
    }
    Push p = pushes.get(string(b, "CheckoutRequestID"));
    if (p == null || !p.shortcode().equals(shortcode)) {
      throw BadRequest.invalid("CheckoutRequestID");
    }
    boolean scripted = faults.queriesBeingProcessed.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    if (scripted || clock.instant().isBefore(p.decidedAt())) {
      return error(500, "500.001.1001", "The transaction is being processed");
    }
    if (faults.queriesStillUnderProcessing.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
      return new Answer(200, JSON.createObjectNode()
          .put("ResponseCode", "0")
          .put("ResponseDescription", "The service request has been accepted successfully")
          .put("MerchantRequestID", p.merchantRequestId())
          .put("CheckoutRequestID", p.checkoutRequestId())
          .put("ResultCode", "4999")
          .put("ResultDesc", "The transaction is still under processing"));
    }
    return new Answer(200, JSON.createObjectNode()
        .put("ResponseCode", "0")
        .put("ResponseDescription", "The service request has been accepted successfully")
        .put("MerchantRequestID", p.merchantRequestId())
        .put("CheckoutRequestID", p.checkoutRequestId())
        .put("ResultCode", p.resultCode())
        .put("ResultDesc", stkDescription(p.resultCode())));
  }

  // ---------------------------------------------------------------------------------------------------------- payouts

  private Answer b2c(ObjectNode b) throws BadRequest {
    String originator = string(b, "OriginatorConversationID");
    if (originator.isEmpty() || originator.length() > 64) {
      throw BadRequest.invalid("OriginatorConversationID");
    }
    String initiator = string(b, "InitiatorName");
    String credential = string(b, "SecurityCredential");
    String command = string(b, "CommandID");
    if (!Set.of("SalaryPayment", "BusinessPayment", "PromotionPayment").contains(command)) {
      throw BadRequest.invalid("CommandID");
    }
    long amount = wholeAmount(b, 1);
    String partyA = knownShortcode(b, "PartyA");
    String partyB = msisdn(b, "PartyB");
    remarks(b);
    URI timeoutUrl = url(b, "QueueTimeOutURL");
    URI resultUrl = url(b, "ResultURL");
    if (byOriginator.containsKey(originator)) {
      return error(500, "500.002.1001", "Duplicate OriginatorConversationID.");
    }
    String conversationId = conversationId();
    String code = !credentialValid(initiator, credential) ? "2001"
        : amount < 10 ? "2"
        : amount > 250_000 ? "3"
        : payoutScript.getOrDefault(partyB, "0");
    if ("0".equals(code) && utilityBalance(partyA).compareTo(BigDecimal.valueOf(amount)) < 0) {
      code = "1";
    }
    Instant now = clock.instant();
    String receipt = "0".equals(code) ? receipt() : null;
    String transactionId = receipt != null ? receipt : receiptPrefix() + "0000000";
    if (receipt != null) {
      utility.merge(partyA, BigDecimal.valueOf(amount).negate(), BigDecimal::add);
    }
    book(new Booked("B2C", originator, conversationId, receipt, partyA, partyB, amount, code,
        receipt != null ? "Completed" : "Failed", now));
    ObjectNode result = result(code, payoutDescription(code), originator, conversationId, transactionId);
    if (receipt != null) {
      ArrayNode ps = result.putObject("ResultParameters").putArray("ResultParameter");
      ps.addObject().put("Key", "TransactionAmount").put("Value", amount);
      ps.addObject().put("Key", "TransactionReceipt").put("Value", receipt);
      ps.addObject().put("Key", "ReceiverPartyPublicName").put("Value", partyB + " - SIMULATED CUSTOMER");
      ps.addObject().put("Key", "TransactionCompletedDateTime").put("Value", B2C_TIME.format(now.atZone(NAIROBI)));
      ps.addObject().put("Key", "B2CUtilityAccountAvailableFunds").put("Value", utilityBalance(partyA));
      ps.addObject().put("Key", "B2CWorkingAccountAvailableFunds").put("Value", working.get(partyA));
      ps.addObject().put("Key", "B2CRecipientIsRegisteredCustomer").put("Value", "Y");
      ps.addObject().put("Key", "B2CChargesPaidAccountAvailableFunds").put("Value", BigDecimal.ZERO);
    }
    referenceItem(result, "QueueTimeoutURL", "https://internalsandbox.safaricom.co.ke/mpesa/b2cresults/v1/submit");
    post(resultUrl, wrap(result), faults.callbackDelay);
    return acknowledgement(originator, conversationId);
  }

  private Answer b2b(ObjectNode b) throws BadRequest {
    String initiator = string(b, "Initiator");
    String credential = string(b, "SecurityCredential");
    String command = string(b, "CommandID");
    if (!Set.of("BusinessPayBill", "BusinessBuyGoods").contains(command)) {
      throw BadRequest.invalid("CommandID");
    }
    if (!"4".equals(scalar(b.get("SenderIdentifierType")))) {
      throw BadRequest.invalid("SenderIdentifierType");
    }
    if (!"4".equals(scalar(b.get("RecieverIdentifierType")))) {
      throw BadRequest.invalid("RecieverIdentifierType");
    }
    long amount = wholeAmount(b, 1);
    String partyA = knownShortcode(b, "PartyA");
    String partyB = digits(b, "PartyB", 5, 9);
    String reference = b.has("AccountReference") ? scalar(b.get("AccountReference")) : null;
    if ((command.equals("BusinessPayBill") && (reference == null || reference.isBlank()))
        || (reference != null && reference.length() > 13)) {
      throw BadRequest.invalid("AccountReference");
    }
    if (b.has("Requester") && (scalar(b.get("Requester")) == null
        || !scalar(b.get("Requester")).matches(MSISDN))) {
      throw BadRequest.invalid("Requester");
    }
    remarks(b);
    URI timeoutUrl = url(b, "QueueTimeOutURL");
    URI resultUrl = url(b, "ResultURL");
    // the B2B pages do not list OriginatorConversationID: taken when given, else Daraja assigns one
    String originator = b.has("OriginatorConversationID") ? string(b, "OriginatorConversationID")
        : random.nextInt(1000, 9999) + "-" + sequence.incrementAndGet() + "-1";
    if (byOriginator.containsKey(originator)) {
      return error(500, "500.002.1001", "Duplicate OriginatorConversationID.");
    }
    String conversationId = conversationId();
    String code = !credentialValid(initiator, credential) ? "2001" : payoutScript.getOrDefault(partyB, "0");
    if ("0".equals(code) && utilityBalance(partyA).compareTo(BigDecimal.valueOf(amount)) < 0) {
      code = "1";
    }
    Instant now = clock.instant();
    String receipt = "0".equals(code) ? receipt() : null;
    if (receipt != null) {
      utility.merge(partyA, BigDecimal.valueOf(amount).negate(), BigDecimal::add);
    }
    book(new Booked("B2B", originator, conversationId, receipt, partyA, partyB, amount, code,
        receipt != null ? "Completed" : "Failed", now));
    ObjectNode result = result(code, payoutDescription(code), originator, conversationId,
        receipt != null ? receipt : receiptPrefix() + "0000000");
    ArrayNode ps = result.putObject("ResultParameters").putArray("ResultParameter");
    if (receipt != null) {
      String balance = "{Amount={CurrencyCode=KES, MinimumAmount=" + utilityBalance(partyA).movePointRight(2)
          .toBigInteger() + ", BasicAmount=" + utilityBalance(partyA).setScale(2) + "}}";
      ps.addObject().put("Key", "DebitAccountBalance").put("Value", balance);
      ps.addObject().put("Key", "Amount").put("Value", BigDecimal.valueOf(amount).setScale(2).toPlainString());
      ps.addObject().put("Key", "DebitPartyAffectedAccountBalance").put("Value", "Working Account|KES|"
          + working.get(partyA).setScale(2) + "|" + working.get(partyA).setScale(2) + "|0.00|0.00");
      ps.addObject().put("Key", "TransCompletedTime").put("Value", TIMESTAMP.format(now.atZone(NAIROBI)));
      ps.addObject().put("Key", "DebitPartyCharges").put("Value", "");
      ps.addObject().put("Key", "ReceiverPartyPublicName").put("Value", partyB + " - SIMULATED BUSINESS");
      ps.addObject().put("Key", "Currency").put("Value", "KES");
      ps.addObject().put("Key", "InitiatorAccountCurrentBalance").put("Value", balance);
    } else {
      ps.addObject().put("Key", "BOCompletedTime").put("Value", Long.parseLong(TIMESTAMP.format(now.atZone(NAIROBI))));
    }
    ArrayNode refs = result.putObject("ReferenceData").putArray("ReferenceItem");
    if (reference != null) {
      refs.addObject().put("Key", "BillReferenceNumber").put("Value", reference);
    }
    refs.addObject().put("Key", "QueueTimeoutURL").put("Value", timeoutUrl.toString());
    post(resultUrl, wrap(result), faults.callbackDelay);
    return acknowledgement(originator, conversationId);
  }

  // ---------------------------------------------------------------------------------------------------------- queries

  private Answer transactionStatus(ObjectNode b) throws BadRequest {
    String initiator = string(b, "Initiator");
    String credential = string(b, "SecurityCredential");
    if (!"TransactionStatusQuery".equals(scalar(b.get("CommandID")))) {
      throw BadRequest.invalid("CommandID");
    }
    String partyA = knownShortcode(b, "PartyA");
    if (!"4".equals(scalar(b.get("IdentifierType")))) {
      throw BadRequest.invalid("IdentifierType");
    }
    String transactionId = b.has("TransactionID") ? string(b, "TransactionID") : null;
    String original = b.has("OriginalConversationID") ? string(b, "OriginalConversationID") : null;
    if (transactionId == null && original == null) {
      throw BadRequest.invalid("TransactionID");
    }
    remarks(b);
    url(b, "QueueTimeOutURL");
    URI resultUrl = url(b, "ResultURL");
    String originator = random.nextInt(1000, 9999) + "-" + sequence.incrementAndGet() + "-1";
    String conversationId = conversationId();
    Booked t = transactionId != null ? byReceipt.get(transactionId) : byOriginator.get(original);
    log.info("Transaction Status about {}: {}", transactionId != null ? transactionId : original,
        t == null ? "no such transaction" : t.kind() + " " + t.status() + " from " + t.shortcode());
    ObjectNode result;
    if (!credentialValid(initiator, credential)) {
      result = result("2001", "The initiator information is invalid.", originator, conversationId,
          receiptPrefix() + "0000000");
    } else if (t == null || !t.shortcode().equals(partyA)) {
      // the page documents no "not found" answer; its one documented failure is this code
      result = result("SFC_IC0003", "The operator does not exist.", originator, conversationId,
          receiptPrefix() + "0000000");
    } else {
      result = result("0", "The service request is processed successfully.", originator, conversationId,
          receiptPrefix() + "0000000");
      String time = TIMESTAMP.format(t.at().atZone(NAIROBI));
      ArrayNode ps = result.putObject("ResultParameters").putArray("ResultParameter");
      ps.addObject().put("Key", "DebitPartyName").put("Value", t.shortcode() + " - Simulated Org");
      ps.addObject().put("Key", "CreditPartyName").put("Value", t.party() + " - SIMULATED PARTY");
      ps.addObject().put("Key", "OriginatorConversationID").put("Value", t.originatorConversationId());
      ps.addObject().put("Key", "InitiatedTime").put("Value", time);
      ps.addObject().put("Key", "DebitAccountType").put("Value", "Utility Account");
      ps.addObject().put("Key", "DebitPartyCharges").put("Value", "");
      ps.addObject().put("Key", "TransactionReason");
      ps.addObject().put("Key", "ReasonType").put("Value", t.kind() + " via API");
      ps.addObject().put("Key", "TransactionStatus").put("Value", t.status());
      ps.addObject().put("Key", "FinalisedTime").put("Value", time);
      ps.addObject().put("Key", "Amount").put("Value", Long.toString(t.amount()));
      ps.addObject().put("Key", "ConversationID").put("Value", t.conversationId());
      if (t.receipt() != null) {
        ps.addObject().put("Key", "ReceiptNo").put("Value", t.receipt());
      }
    }
    referenceItem(result, "Occasion", null);
    post(resultUrl, wrap(result), faults.callbackDelay);
    return acknowledgement(originator, conversationId);
  }

  private Answer accountBalance(ObjectNode b) throws BadRequest {
    String initiator = string(b, "Initiator");
    String credential = string(b, "SecurityCredential");
    if (!"AccountBalance".equals(scalar(b.get("CommandID")))) {
      throw BadRequest.invalid("CommandID");
    }
    String partyA = knownShortcode(b, "PartyA");
    if (!"4".equals(scalar(b.get("IdentifierType")))) {
      throw BadRequest.invalid("IdentifierType");
    }
    remarks(b);
    url(b, "QueueTimeOutURL");
    URI resultUrl = url(b, "ResultURL");
    String originator = random.nextInt(1000, 9999) + "-" + sequence.incrementAndGet() + "-3";
    String conversationId = conversationId();
    ObjectNode result;
    if (!credentialValid(initiator, credential)) {
      result = result("2001", "The initiator information is invalid.", originator, conversationId,
          receiptPrefix() + "0000000");
    } else {
      result = result("0", "The service request is processed successfully", originator, conversationId,
          receiptPrefix() + "0000000");
      String w = working.get(partyA).setScale(2).toPlainString();
      String u = utilityBalance(partyA).setScale(2).toPlainString();
      String balances = "Working Account|KES|" + w + "|" + w + "|0.00|0.00"
          + "&Float Account|KES|0.00|0.00|0.00|0.00"
          + "&Utility Account|KES|" + u + "|" + u + "|0.00|0.00"
          + "&Charges Paid Account|KES|0.00|0.00|0.00|0.00"
          + "&Organization Settlement Account|KES|0.00|0.00|0.00|0.00";
      ArrayNode ps = result.putObject("ResultParameters").putArray("ResultParameter");
      ps.addObject().put("Key", "AccountBalance").put("Value", balances);
      ps.addObject().put("Key", "BOCompletedTime").put("Value", TIMESTAMP.format(clock.instant().atZone(NAIROBI)));
    }
    referenceItem(result, "QueueTimeoutURL", "https://internalsandbox.safaricom.co.ke/mpesa/abresults/v1/submit");
    post(resultUrl, wrap(result), faults.callbackDelay);
    return acknowledgement(originator, conversationId);
  }

  private Answer reversal(ObjectNode b) throws BadRequest {
    String initiator = string(b, "Initiator");
    String credential = string(b, "SecurityCredential");
    if (!"TransactionReversal".equals(scalar(b.get("CommandID")))) {
      throw BadRequest.invalid("CommandID");
    }
    String transactionId = string(b, "TransactionID");
    if (!transactionId.matches("[A-Z0-9]{6,20}")) {
      throw BadRequest.invalid("TransactionID");
    }
    long amount = wholeAmount(b, 1);
    String receiver = knownShortcode(b, "ReceiverParty");
    if (!"11".equals(scalar(b.get("RecieverIdentifierType")))) {
      throw BadRequest.invalid("RecieverIdentifierType");
    }
    remarks(b);
    url(b, "QueueTimeOutURL");
    URI resultUrl = url(b, "ResultURL");
    String originator = random.nextInt(1000, 9999) + "-" + sequence.incrementAndGet() + "-1";
    String conversationId = conversationId();
    Booked t = byReceipt.get(transactionId);
    Instant now = clock.instant();
    ObjectNode result;
    if (!credentialValid(initiator, credential)) {
      result = result("2001", "The initiator information is invalid", originator, conversationId,
          receiptPrefix() + "0000000");
    } else if (t == null || !t.kind().equals("C2B") || !t.shortcode().equals(receiver) || amount > t.amount()) {
      result = result("R000002", "The OriginalTransactionID is invalid.", originator, conversationId,
          receiptPrefix() + "0000000");
    } else if (!reversed.add(transactionId)) {
      result = result("R000001", "The transaction has already been reversed", originator, conversationId,
          receiptPrefix() + "0000000");
    } else {
      String receipt = receipt();
      utility.merge(receiver, BigDecimal.valueOf(amount).negate(), BigDecimal::add);
      book(new Booked("REVERSAL", originator, conversationId, receipt, receiver, t.party(), amount, "0",
          "Completed", now));
      result = result("0", "The service request is processed successfully.", originator, conversationId, receipt);
      ArrayNode ps = result.putObject("ResultParameters").putArray("ResultParameter");
      ps.addObject().put("Key", "DebitAccountBalance").put("Value", "Utility Account|KES|"
          + utilityBalance(receiver).setScale(2) + "|" + utilityBalance(receiver).setScale(2) + "|0.00|0.00");
      ps.addObject().put("Key", "Amount").put("Value", BigDecimal.valueOf(amount).setScale(2));
      ps.addObject().put("Key", "TransCompletedTime")
          .put("Value", Long.parseLong(TIMESTAMP.format(now.atZone(NAIROBI))));
      ps.addObject().put("Key", "OriginalTransactionID").put("Value", transactionId);
      ps.addObject().put("Key", "Charge").put("Value", BigDecimal.ZERO.setScale(2));
      ps.addObject().put("Key", "CreditPartyPublicName").put("Value", t.party() + " - SIMULATED CUSTOMER");
      ps.addObject().put("Key", "DebitPartyPublicName").put("Value", receiver + " - Simulated Org");
    }
    referenceItem(result, "QueueTimeoutURL",
        "https://internalsandbox.safaricom.co.ke/mpesa/reversalresults/v1/submit");
    post(resultUrl, wrap(result), faults.callbackDelay);
    return acknowledgement(originator, conversationId);
  }

  // ------------------------------------------------------------------------------------------------------- callbacks

  /** Posts a callback or result as the fault mode says; Daraja never retries, so neither does the simulator. */
  private void post(URI url, JsonNode body, Duration normalDelay) {
    Faults.CallbackMode mode = faults.callbackMode;
    Duration delay = mode == Faults.CallbackMode.LATE ? faults.lateBy : normalDelay;
    String json = JSON.writeValueAsString(body);
    switch (mode) {
      case NEVER -> log.debug("Daraja simulator: callback to {} withheld (fault mode NEVER)", url);
      case TWICE -> {
        scheduler.schedule(() -> send(url, json), delay.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.schedule(() -> send(url, json), delay.toMillis() + 20, TimeUnit.MILLISECONDS);
      }
      default -> scheduler.schedule(() -> send(url, json), delay.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void send(URI url, String json) {
    int status;
    try {
      HttpResponse<Void> response = callbackClient.send(HttpRequest.newBuilder(url)
              .timeout(Duration.ofSeconds(5))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(json)).build(),
          HttpResponse.BodyHandlers.discarding());
      status = response.statusCode();
    } catch (IOException e) {
      status = 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      status = 0;
    }
    posted.add(new Posted(url, json, status, clock.instant()));
  }

  // --------------------------------------------------------------------------------------------------------- helpers

  private void book(Booked t) {
    byOriginator.put(t.originatorConversationId(), t);
    if (t.receipt() != null) {
      byReceipt.put(t.receipt(), t);
    }
  }

  private boolean credentialValid(String initiator, String credential) {
    String expected = initiators.get(initiator);
    Optional<String> password = certificate.decrypt(credential);
    return expected != null && password.isPresent() && password.get().equals(expected);
  }

  private static ObjectNode result(String code, String description, String originator, String conversationId,
      String transactionId) {
    ObjectNode r = JSON.createObjectNode().put("ResultType", 0);
    if (code.matches("[0-9]+")) {
      r.put("ResultCode", Integer.parseInt(code));
    } else {
      r.put("ResultCode", code);
    }
    return r.put("ResultDesc", description)
        .put("OriginatorConversationID", originator)
        .put("ConversationID", conversationId)
        .put("TransactionID", transactionId);
  }

  private static void referenceItem(ObjectNode result, String key, String value) {
    ObjectNode item = result.putObject("ReferenceData").putObject("ReferenceItem").put("Key", key);
    if (value != null) {
      item.put("Value", value);
    }
  }

  private static ObjectNode wrap(ObjectNode result) {
    ObjectNode root = JSON.createObjectNode();
    root.set("Result", result);
    return root;
  }

  private static Answer acknowledgement(String originator, String conversationId) {
    return new Answer(200, JSON.createObjectNode()
        .put("OriginatorConversationID", originator)
        .put("ConversationID", conversationId)
        .put("ResponseCode", "0")
        .put("ResponseDescription", "Accept the service request successfully."));
  }

  private Answer error(int status, String code, String message) {
    return new Answer(status, JSON.createObjectNode()
        .put("requestId", HexFormat.of().formatHex(randomBytes(2)) + "-" + HexFormat.of().formatHex(randomBytes(2))
            + "-" + sequence.incrementAndGet())
        .put("errorCode", code)
        .put("errorMessage", message));
  }

  private static String stkDescription(String code) {
    return switch (code) {
      case "0" -> "The service request is processed successfully.";
      case "1" -> "The balance is insufficient for the transaction.";
      case "17" -> "Rule limited.";
      case "1019" -> "Transaction has expired.";
      case "1025" -> "An error occurred while sending a push request.";
      case "1032" -> "Request cancelled by user";
      case "1037" -> "DS timeout user cannot be reached";
      case "2001" -> "The initiator information is invalid.";
      case "2028" -> "The request is not permitted according to product assignment.";
      case "8006" -> "The security credential is locked.";
      default -> "Simulated result " + code;
    };
  }

  private static String payoutDescription(String code) {
    return switch (code) {
      case "0" -> "The service request is processed successfully.";
      case "1" -> "The balance is insufficient for the transaction.";
      case "2" -> "Declined due to limit rule";
      case "3" -> "Declined due to limit rule: greater than the maximum transaction amount.";
      case "11" -> "The DebitParty is in an invalid state.";
      case "21" -> "The initiator is not allowed to initiate this request";
      case "2001" -> "The initiator information is invalid.";
      case "2006" -> "Declined due to account rule: The account status does not allow this transaction.";
      case "2040" -> "Credit Party customer type (Unregistered or Registered Customer) can't be supported by the "
          + "service.";
      case "8006" -> "The security credential is locked";
      default -> "Simulated result " + code;
    };
  }

  private static String string(ObjectNode b, String field) throws BadRequest {
    String s = scalar(b.get(field));
    if (s == null) {
      throw BadRequest.invalid(field);
    }
    return s;
  }

  /** A string or a number as text. */
  private static String scalar(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isString()) {
      return n.stringValue();
    }
    if (n.isIntegralNumber()) {
      return n.bigIntegerValue().toString();
    }
    if (n.isNumber()) {
      return n.decimalValue().toPlainString();
    }
    return null;
  }

  private static String digits(ObjectNode b, String field, int min, int max) throws BadRequest {
    String s = string(b, field);
    if (!s.matches("[0-9]{" + min + "," + max + "}")) {
      throw BadRequest.invalid(field);
    }
    return s;
  }

  private String knownShortcode(ObjectNode b, String field) throws BadRequest {
    String s = digits(b, field, 5, 9);
    if (!passkeys.containsKey(s)) {
      throw BadRequest.invalid(field);
    }
    return s;
  }

  private static String msisdn(ObjectNode b, String field) throws BadRequest {
    String s = string(b, field);
    if (!s.matches(MSISDN)) {
      throw BadRequest.invalid(field);
    }
    return s;
  }

  private static long wholeAmount(ObjectNode b, long min) throws BadRequest {
    String s = string(b, "Amount").strip();
    if (!s.matches("[0-9]{1,9}") || Long.parseLong(s) < min) {
      throw BadRequest.invalid("Amount");
    }
    return Long.parseLong(s);
  }

  private static void remarks(ObjectNode b) throws BadRequest {
    String s = string(b, "Remarks");
    if (s.length() < 2 || s.length() > 100) {
      throw BadRequest.invalid("Remarks");
    }
  }

  private static URI url(ObjectNode b, String field) throws BadRequest {
    String s = string(b, field);
    try {
      URI u = URI.create(s);
      if (u.getHost() == null || !Set.of("http", "https").contains(u.getScheme())) {
        throw BadRequest.invalid(field);
      }
      return u;
    } catch (IllegalArgumentException e) {
      throw BadRequest.invalid(field);
    }
  }

  private static String timestamp(ObjectNode b) throws BadRequest {
    String s = string(b, "Timestamp");
    if (!s.matches("20[0-9]{12}")) {
      throw BadRequest.invalid("Timestamp");
    }
    return s;
  }

  private static String password(String shortcode, String passkey, String timestamp) {
    return Base64.getEncoder().encodeToString((shortcode + passkey + timestamp).getBytes(StandardCharsets.UTF_8));
  }

  private String conversationId() {
    return "AG_" + DAY.format(clock.instant().atZone(NAIROBI)) + "_" + HexFormat.of().formatHex(randomBytes(10));
  }

  private String receipt() {
    return receiptPrefix() + randomAlphanumeric(7).toUpperCase(Locale.ROOT);
  }

  private String receiptPrefix() {
    // M-Pesa receipts start with letters for the year and month
    return "S" + (char) ('A' + clock.instant().atZone(NAIROBI).getMonthValue() - 1) + "K";
  }

  private String randomAlphanumeric(int length) {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz";
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  private byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private static String readBody(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(64 * 1024 + 1);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Per API path, how many requests were answered 2xx (a refused token or a bad request is not counted). */
  public Map<String, Long> accepted() {
    Map<String, Long> counts = new TreeMap<>();
    accepted.forEach((path, count) -> counts.put(path, count.sum()));
    return counts;
  }

  /** The received requests, for a test's own filtering. */
  public List<Received> received() {
    return new ArrayList<>(received);
  }
}
