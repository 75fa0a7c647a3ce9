package dev.lipa.rails.daraja;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.daraja.simulator.DarajaSimulator;
import dev.lipa.daraja.simulator.Faults;
import dev.lipa.rails.daraja.callback.AccountBalances;
import dev.lipa.rails.daraja.callback.DarajaCallbacks;
import dev.lipa.rails.daraja.callback.DarajaResult;
import dev.lipa.rails.daraja.callback.Parsed;
import dev.lipa.rails.daraja.callback.StkCallback;
import dev.lipa.rails.daraja.callback.TransactionStatusReport;
import dev.lipa.rails.daraja.credential.SecurityCredentials;
import dev.lipa.rails.daraja.result.FailureReason;
import dev.lipa.rails.daraja.result.ResultCodes;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The connector against the Daraja simulator over real sockets: every API, and every fault the simulator can play.
 * The callbacks are received by a real HTTP server and read with the connector's own parsers.
 */
class DarajaContractIntegrationTests {

  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final AtomicInteger PHONES = new AtomicInteger(10);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static DarajaSimulator daraja;
  private static CallbackReceiver platform;
  private final List<DarajaClient> clients = new ArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    daraja = DarajaSimulator.start();
    platform = new CallbackReceiver();
  }

  @AfterAll
  static void stop() {
    daraja.close();
    platform.close();
  }

  /** This test's own callback paths: a late result of an earlier test cannot be taken for one of this test's. */
  private String run;

  @BeforeEach
  void clean() {
    daraja.reset();
    platform.clear();
    run = "/" + UUID.randomUUID();
  }

  @AfterEach
  void closeClients() {
    clients.forEach(DarajaClient::close);
  }

  private DarajaConfig config() {
    String credential = SecurityCredentials.encrypt(DarajaSimulator.INITIATOR_PASSWORD.toCharArray(),
        daraja.certificate().certificate());
    return new DarajaConfig(daraja.baseUrl(), DarajaSimulator.CONSUMER_KEY, DarajaSimulator.CONSUMER_SECRET,
        DarajaSimulator.SHORTCODE, DarajaSimulator.PASSKEY, DarajaSimulator.INITIATOR, credential,
        platform.url(run + "/stk"), platform.url(run + "/result"), platform.url(run + "/timeout"),
        Duration.ofSeconds(2), Duration.ofSeconds(3), null);
  }

  private DarajaClient client(DarajaConfig config) {
    return client(config, CircuitBreakerRegistry.ofDefaults(), Clock.systemUTC());
  }

  private DarajaClient client(DarajaConfig config, CircuitBreakerRegistry breakers, Clock clock) {
    DarajaClient c = new DarajaClient(config, breakers, clock);
    clients.add(c);
    return c;
  }

  private static String phone() {
    return String.format("2547%08d", PHONES.incrementAndGet());
  }

  private static String id() {
    return UUID.randomUUID().toString();
  }

  private static <T> T accepted(Outcome<T> outcome) {
    assertThat(outcome).isInstanceOf(Outcome.Accepted.class);
    return ((Outcome.Accepted<T>) outcome).answer();
  }

  private static <T> T valid(Parsed<T> parsed) {
    assertThat(parsed).isInstanceOf(Parsed.Valid.class);
    return ((Parsed.Valid<T>) parsed).value();
  }

  private DarajaResult nextResult() throws InterruptedException {
    String body = platform.next(run + "/result", WAIT);
    assertThat(body).as("a result posted to the ResultURL").isNotNull();
    return valid(DarajaCallbacks.result(body));
  }

  private StkCallback nextStkCallback() throws InterruptedException {
    String body = platform.next(run + "/stk", WAIT);
    assertThat(body).as("a callback posted to the CallBackURL").isNotNull();
    return valid(DarajaCallbacks.stk(body));
  }

  private static JsonNode lastBody(String path) {
    List<DarajaSimulator.Received> received = daraja.received(path);
    return JSON.readTree(received.get(received.size() - 1).body());
  }

  // ------------------------------------------------------------------------------------------------------------ OAuth

  @Test
  void theTokenIsFetchedOnceAndReusedWhileFresh() {
    DarajaClient c = client(config());
    accepted(c.accountBalance("balance"));
    accepted(c.accountBalance("balance"));
    accepted(c.accountBalance("balance"));
    assertThat(daraja.received("/oauth/v1/generate")).hasSize(1);
  }

  @Test
  void aTokenIsReplacedShortlyBeforeItsStringExpiryWithoutEverBeingRefused() {
    daraja.faults().tokenLifetimeSeconds(200);
    MutableClock clock = new MutableClock();
    DarajaClient c = client(config(), CircuitBreakerRegistry.ofDefaults(), clock);
    accepted(c.accountBalance("balance"));
    clock.advance(Duration.ofSeconds(100)); // inside the token's life less the 60 s margin
    accepted(c.accountBalance("balance"));
    assertThat(daraja.received("/oauth/v1/generate")).hasSize(1);
    clock.advance(Duration.ofSeconds(50)); // 150 s: past 200 - 60
    accepted(c.accountBalance("balance"));
    assertThat(daraja.received("/oauth/v1/generate")).hasSize(2);
    assertThat(daraja.received("/mpesa/accountbalance/v1/query")).hasSize(3);
  }

  @Test
  void aTokenDarajaExpiredIsDroppedAndTheRequestSentOnceMoreWithAFreshOne() {
    DarajaClient c = client(config());
    accepted(c.accountBalance("balance"));
    daraja.expireTokens();
    accepted(c.b2c(new B2cRequest(id(), B2cRequest.B2cCommand.BusinessPayment, new BigDecimal("100"), phone(),
        "payout", null)));
    assertThat(daraja.received("/oauth/v1/generate")).hasSize(2);
    // the refused request and its one retry; the refusal came before M-Pesa acted, so nothing is paid twice
    assertThat(daraja.received("/mpesa/b2c/v3/paymentrequest")).hasSize(2);
  }

  @Test
  void concurrentCallersWithNoTokenCauseOneRefresh() throws Exception {
    DarajaClient c = client(config());
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Outcome<Acknowledgement>>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        calls.add(() -> c.accountBalance("balance"));
      }
      for (Future<Outcome<Acknowledgement>> f : pool.invokeAll(calls)) {
        accepted(f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(daraja.received("/oauth/v1/generate")).hasSize(1);
  }

  @Test
  void badConsumerCredentialsGiveNoTokenAndNothingIsSent() {
    DarajaConfig wrong = new DarajaConfig(daraja.baseUrl(), DarajaSimulator.CONSUMER_KEY, "wrong-secret",
        DarajaSimulator.SHORTCODE, DarajaSimulator.PASSKEY, DarajaSimulator.INITIATOR, "x",
        platform.url(run + "/stk"), platform.url(run + "/result"), platform.url(run + "/timeout"), null, null, null);
    Outcome<Acknowledgement> o = client(wrong).b2c(new B2cRequest(id(), B2cRequest.B2cCommand.BusinessPayment,
        new BigDecimal("100"), phone(), "payout", null));
    assertThat(o).isInstanceOf(Outcome.Refused.class);
    Refusal r = ((Outcome.Refused<Acknowledgement>) o).refusal();
    assertThat(r.kind()).isEqualTo(Refusal.Kind.NO_TOKEN);
    assertThat(r.errorCode()).isEqualTo("400.008.01");
    assertThat(daraja.received("/mpesa/b2c/v3/paymentrequest")).isEmpty();
  }

  // -------------------------------------------------------------------------------------------------------------- STK

  @Test
  void aPayBillPushIsAcceptedAndItsCallbackReadsAsThePayment() throws Exception {
    String phone = phone();
    StkPushAnswer answer = accepted(client(config()).stkPush(
        StkPushRequest.payBill(new BigDecimal("150"), phone, "INV-0001", "Order 1")));
    StkCallback cb = nextStkCallback();
    assertThat(cb.checkoutRequestId()).isEqualTo(answer.checkoutRequestId());
    assertThat(cb.merchantRequestId()).isEqualTo(answer.merchantRequestId());
    assertThat(cb.successful()).isTrue();
    assertThat(cb.payment().amount()).isEqualByComparingTo("150");
    assertThat(cb.payment().phoneNumber()).isEqualTo(phone);
    JsonNode sent = lastBody("/mpesa/stkpush/v1/processrequest");
    assertThat(sent.path("TransactionType").stringValue()).isEqualTo("CustomerPayBillOnline");
    assertThat(sent.path("PartyB").stringValue()).isEqualTo(DarajaSimulator.SHORTCODE);
  }

  @Test
  void aBuyGoodsPushPaysTheTillWithThePasswordOfTheShortcodeAndNairobiTime() throws Exception {
    accepted(client(config()).stkPush(StkPushRequest.buyGoods("5123456", new BigDecimal("99"), "0712000001",
        "SHOP", null)));
    JsonNode sent = lastBody("/mpesa/stkpush/v1/processrequest");
    assertThat(sent.path("TransactionType").stringValue()).isEqualTo("CustomerBuyGoodsOnline");
    assertThat(sent.path("BusinessShortCode").stringValue()).isEqualTo(DarajaSimulator.SHORTCODE);
    assertThat(sent.path("PartyB").stringValue()).isEqualTo("5123456");
    assertThat(sent.path("PartyA").stringValue()).isEqualTo("254712000001");
    String timestamp = sent.path("Timestamp").stringValue();
    LocalDateTime sentAt = LocalDateTime.parse(timestamp, DateTimeFormatter.ofPattern("uuuuMMddHHmmss"));
    LocalDateTime nairobiNow = LocalDateTime.now(ZoneId.of("Africa/Nairobi"));
    assertThat(Duration.between(sentAt, nairobiNow).abs()).isLessThan(Duration.ofMinutes(1));
    assertThat(new String(Base64.getDecoder().decode(sent.path("Password").stringValue())))
        .isEqualTo(DarajaSimulator.SHORTCODE + DarajaSimulator.PASSKEY + timestamp);
    assertThat(nextStkCallback().successful()).isTrue();
  }

  @Test
  void aWrongPasskeyIsRefusedNotUnknown() {
    DarajaConfig c = config();
    DarajaConfig wrongPasskey = new DarajaConfig(c.baseUrl(), c.consumerKey(), c.consumerSecret(), c.shortcode(),
        "not-the-passkey", c.initiatorName(), c.securityCredential(), c.callbackUrl(), c.resultUrl(),
        c.queueTimeoutUrl(), null, null, null);
    Outcome<StkPushAnswer> o = client(wrongPasskey).stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone(), "ref",
        null));
    assertThat(o).isInstanceOf(Outcome.Refused.class);
    assertThat(((Outcome.Refused<StkPushAnswer>) o).refusal().errorCode()).isEqualTo("500.001.1001");
  }

  @Test
  void aCancelledPushReadsAsCancelledInTheCallbackAndTheQuery() throws Exception {
    String phone = phone();
    daraja.stkResult(phone, "1032");
    DarajaClient c = client(config());
    StkPushAnswer answer = accepted(c.stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone, "ref", null)));
    StkCallback cb = nextStkCallback();
    assertThat(cb.payment()).isNull();
    assertThat(ResultCodes.stk(cb.resultCode()).reason()).isEqualTo(FailureReason.CANCELLED);
    StkQueryResult q = c.stkQuery(answer.checkoutRequestId());
    assertThat(q).isInstanceOf(StkQueryResult.Completed.class);
    assertThat(((StkQueryResult.Completed) q).resultCode()).isEqualTo("1032");
  }

  @Test
  void theQuerysEarlyBeingProcessedAnswerIsNotFinal() throws Exception {
    DarajaClient c = client(config());
    StkPushAnswer answer = accepted(c.stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone(), "ref", null)));
    daraja.faults().stkQueriesBeingProcessed(2);
    StkQueryResult first = c.stkQuery(answer.checkoutRequestId());
    StkQueryResult second = c.stkQuery(answer.checkoutRequestId());
    assertThat(first).isInstanceOf(StkQueryResult.StillProcessing.class);
    assertThat(first.isFinal()).isFalse();
    assertThat(second.isFinal()).isFalse();
    nextStkCallback(); // the customer has answered
    StkQueryResult third = c.stkQuery(answer.checkoutRequestId());
    assertThat(third.isFinal()).as(third.toString()).isTrue();
    assertThat(((StkQueryResult.Completed) third).successful()).isTrue();
  }

  @Test
  void theQuerysStillUnderProcessingResultCodeIsNotFinalEither() throws Exception {
    DarajaClient c = client(config());
    StkPushAnswer answer = accepted(c.stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone(), "ref", null)));
    nextStkCallback(); // the customer has answered, yet Daraja says 4999 in a 200 answer
    daraja.faults().stkQueriesStillUnderProcessing(1);

    StkQueryResult first = c.stkQuery(answer.checkoutRequestId());
    StkQueryResult second = c.stkQuery(answer.checkoutRequestId());

    assertThat(first).isEqualTo(new StkQueryResult.StillProcessing("4999", "The transaction is still under processing"));
    assertThat(second.isFinal()).as(second.toString()).isTrue();
  }

  @Test
  void aLostStkCallbackIsVisibleAndTheQuerySettlesThePush() throws Exception {
    daraja.faults().callbacks(Faults.CallbackMode.NEVER);
    DarajaClient c = client(config());
    StkPushAnswer answer = accepted(c.stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone(), "ref", null)));
    assertThat(platform.next(run + "/stk", Duration.ofMillis(400))).isNull();
    StkQueryResult q = c.stkQuery(answer.checkoutRequestId());
    assertThat(q.isFinal()).isTrue();
    assertThat(((StkQueryResult.Completed) q).successful()).isTrue();
  }

  @Test
  void aDuplicatedCallbackArrivesTwiceWithTheSameIds() throws Exception {
    daraja.faults().callbacks(Faults.CallbackMode.TWICE);
    accepted(client(config()).stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone(), "ref", null)));
    StkCallback first = nextStkCallback();
    StkCallback second = nextStkCallback();
    assertThat(second).isEqualTo(first);
  }

  @Test
  void aLateCallbackArrivesAfterTheNormalWindow() throws Exception {
    daraja.faults().callbacks(Faults.CallbackMode.LATE).lateBy(Duration.ofMillis(900));
    accepted(client(config()).stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone(), "ref", null)));
    assertThat(platform.next(run + "/stk", Duration.ofMillis(300))).isNull();
    assertThat(nextStkCallback().successful()).isTrue();
  }

  @Test
  void aPushNamesItsOwnCallbackUrl() throws Exception {
    accepted(client(config()).stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone(), "ref", null)
        .withCallbackUrl(platform.url(run + "/stk/push-7f3a"))));
    assertThat(platform.next(run + "/stk/push-7f3a", WAIT)).isNotNull();
  }

  @Test
  void anStkPushWhoseAnswerIsLostIsUnknownAndItsOwnCallbackUrlStillFindsTheRecord() throws Exception {
    daraja.faults().answerAfter(Duration.ofMillis(1200));
    DarajaClient c = client(config().withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(400)));
    Outcome<StkPushAnswer> o = c.stkPush(StkPushRequest.payBill(BigDecimal.TEN, phone(), "ref", null)
        .withCallbackUrl(platform.url(run + "/stk/record-42")));
    assertThat(o).isInstanceOf(Outcome.Unknown.class);
    // no CheckoutRequestID to query by; the result still names the record through its URL
    String body = platform.next(run + "/stk/record-42", WAIT);
    assertThat(body).isNotNull();
    assertThat(((Parsed.Valid<StkCallback>) DarajaCallbacks.stk(body)).value().successful()).isTrue();
    Thread.sleep(900);
    assertThat(daraja.received("/mpesa/stkpush/v1/processrequest")).hasSize(1);
  }

  // -------------------------------------------------------------------------------------------------------------- B2C

  @Test
  void aB2cPaymentIsAcceptedUnderOurIdAndItsResultCarriesTheReceipt() throws Exception {
    String originator = id();
    BigDecimal before = daraja.utilityBalance(DarajaSimulator.SHORTCODE);
    Acknowledgement ack = accepted(client(config()).b2c(new B2cRequest(originator,
        B2cRequest.B2cCommand.BusinessPayment, new BigDecimal("500"), phone(), "payout", "Occasion")));
    assertThat(ack.originatorConversationId()).isEqualTo(originator);
    DarajaResult result = nextResult();
    assertThat(result.originatorConversationId()).isEqualTo(originator);
    assertThat(result.conversationId()).isEqualTo(ack.conversationId());
    assertThat(result.successful()).isTrue();
    assertThat(result.receipt()).isPresent();
    assertThat(result.amount()).contains(new BigDecimal("500"));
    assertThat(daraja.utilityBalance(DarajaSimulator.SHORTCODE)).isEqualByComparingTo(
        before.subtract(new BigDecimal("500")));
    assertThat(lastBody("/mpesa/b2c/v3/paymentrequest").path("Occassion").stringValue()).isEqualTo("Occasion");
  }

  @Test
  void aWrongSecurityCredentialIsAcceptedAndFailsAsInitiatorInvalid() throws Exception {
    DarajaConfig c = config();
    String wrong = SecurityCredentials.encrypt("not-the-password".toCharArray(), daraja.certificate().certificate());
    DarajaConfig wrongCredential = new DarajaConfig(c.baseUrl(), c.consumerKey(), c.consumerSecret(),
        c.shortcode(), c.passkey(), c.initiatorName(), wrong, c.callbackUrl(), c.resultUrl(), c.queueTimeoutUrl(),
        null, null, null);
    accepted(client(wrongCredential).b2c(new B2cRequest(id(), B2cRequest.B2cCommand.BusinessPayment,
        new BigDecimal("100"), phone(), "payout", null)));
    DarajaResult result = nextResult();
    assertThat(result.resultCode()).isEqualTo("2001");
    assertThat(ResultCodes.payout(result.resultCode()).reason()).isEqualTo(FailureReason.INITIATOR_INVALID);
  }

  @Test
  void anUnregisteredReceiverFailsWithItsReason() throws Exception {
    String phone = phone();
    daraja.payoutResult(phone, "2040");
    accepted(client(config()).b2c(new B2cRequest(id(), B2cRequest.B2cCommand.BusinessPayment,
        new BigDecimal("100"), phone, "payout", null)));
    assertThat(ResultCodes.payout(nextResult().resultCode()).reason())
        .isEqualTo(FailureReason.RECEIVER_NOT_REGISTERED);
  }

  @Test
  void aB2cTimeoutIsUnknownNeverResentAndSettledByTransactionStatusOnItsOriginatorId() throws Exception {
    String originator = id();
    daraja.faults().answerAfter(Duration.ofMillis(1500));
    DarajaClient c = client(config().withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(500)));
    Outcome<Acknowledgement> o = c.b2c(new B2cRequest(originator, B2cRequest.B2cCommand.BusinessPayment,
        new BigDecimal("700"), phone(), "payout", null));
    assertThat(o).isInstanceOf(Outcome.Unknown.class);
    assertThat(((Outcome.Unknown<Acknowledgement>) o).originatorConversationId()).isEqualTo(originator);
    Thread.sleep(1200); // long enough for any resend to have been made
    assertThat(daraja.received("/mpesa/b2c/v3/paymentrequest")).hasSize(1);

    daraja.faults().answerAfter(Duration.ZERO);
    platform.drain(run + "/result"); // the payout's own result (it was paid) is not what settles it here
    accepted(c.transactionStatus(TransactionStatusQuery.byOriginatorConversationId(originator)));
    assertThat(lastBody("/mpesa/transactionstatus/v1/query").path("OriginalConversationID").stringValue())
        .isEqualTo(originator);
    TransactionStatusReport report = TransactionStatusReport.of(nextResult());
    assertThat(report).isInstanceOf(TransactionStatusReport.Completed.class);
    TransactionStatusReport.Completed done = (TransactionStatusReport.Completed) report;
    assertThat(done.originatorConversationId()).isEqualTo(originator);
    assertThat(done.amount()).isEqualByComparingTo("700");
    assertThat(done.receipt()).isNotBlank();
  }

  @Test
  void aTransactionStatusQuestionAboutAnUnknownIdSettlesNothing() throws Exception {
    accepted(client(config()).transactionStatus(TransactionStatusQuery.byOriginatorConversationId(id())));
    assertThat(TransactionStatusReport.of(nextResult())).isInstanceOf(TransactionStatusReport.NotFound.class);
  }

  @Test
  void aLostB2cResultIsSettledByTransactionStatus() throws Exception {
    daraja.faults().callbacks(Faults.CallbackMode.NEVER);
    String originator = id();
    DarajaClient c = client(config());
    accepted(c.b2c(new B2cRequest(originator, B2cRequest.B2cCommand.BusinessPayment, new BigDecimal("120"),
        phone(), "payout", null)));
    assertThat(platform.next(run + "/result", Duration.ofMillis(300))).isNull();
    daraja.faults().callbacks(Faults.CallbackMode.NORMAL);
    accepted(c.transactionStatus(TransactionStatusQuery.byOriginatorConversationId(originator)));
    assertThat(TransactionStatusReport.of(nextResult())).isInstanceOf(TransactionStatusReport.Completed.class);
  }

  @Test
  void aResentOriginatorIdIsRefusedByDarajaAsDuplicateAndReadAsUnknown() throws Exception {
    String originator = id();
    DarajaClient c = client(config());
    B2cRequest request = new B2cRequest(originator, B2cRequest.B2cCommand.BusinessPayment, new BigDecimal("100"),
        phone(), "payout", null);
    accepted(c.b2c(request));
    Outcome<Acknowledgement> again = c.b2c(request);
    // the first may have been paid: never read a duplicate as "not paid"
    assertThat(again).isInstanceOf(Outcome.Unknown.class);
    assertThat(((Outcome.Unknown<Acknowledgement>) again).errorCode()).isEqualTo("500.002.1001");
  }

  @Test
  void spikeArrestOpensTheB2cBreakerAndThenNothingIsSent() {
    CircuitBreakerRegistry breakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
        .slidingWindowSize(4).minimumNumberOfCalls(4).failureRateThreshold(50)
        .waitDurationInOpenState(Duration.ofMinutes(1)).build());
    DarajaClient c = client(config(), breakers, Clock.systemUTC());
    daraja.faults().spikeArrest(true);
    for (int i = 0; i < 4; i++) {
      Outcome<Acknowledgement> o = c.b2c(new B2cRequest(id(), B2cRequest.B2cCommand.BusinessPayment,
          new BigDecimal("100"), phone(), "payout", null));
      assertThat(o).isInstanceOf(Outcome.Unknown.class);
      assertThat(((Outcome.Unknown<Acknowledgement>) o).httpStatus()).isEqualTo(503);
    }
    Outcome<Acknowledgement> fifth = c.b2c(new B2cRequest(id(), B2cRequest.B2cCommand.BusinessPayment,
        new BigDecimal("100"), phone(), "payout", null));
    assertThat(fifth).isInstanceOf(Outcome.Refused.class);
    assertThat(((Outcome.Refused<Acknowledgement>) fifth).refusal().kind()).isEqualTo(Refusal.Kind.CIRCUIT_OPEN);
    assertThat(daraja.received("/mpesa/b2c/v3/paymentrequest")).hasSize(4);
    // the other families have their own breakers
    daraja.faults().spikeArrest(false);
    accepted(c.accountBalance("balance"));
  }

  @Test
  void aValidationErrorIsSurelyNotReceived() {
    DarajaConfig c = config();
    DarajaConfig unknownShortcode = new DarajaConfig(c.baseUrl(), c.consumerKey(), c.consumerSecret(), "600999",
        c.passkey(), c.initiatorName(), c.securityCredential(), c.callbackUrl(), c.resultUrl(), c.queueTimeoutUrl(),
        null, null, null);
    Outcome<Acknowledgement> o = client(unknownShortcode).b2c(new B2cRequest(id(),
        B2cRequest.B2cCommand.BusinessPayment, new BigDecimal("100"), phone(), "payout", null));
    assertThat(o).isInstanceOf(Outcome.Refused.class);
    Refusal r = ((Outcome.Refused<Acknowledgement>) o).refusal();
    assertThat(r.kind()).isEqualTo(Refusal.Kind.INVALID_REQUEST);
    assertThat(r.httpStatus()).isEqualTo(400);
    assertThat(r.errorCode()).isEqualTo("400.002.02");
    assertThat(r.message()).isEqualTo("Bad Request - Invalid PartyA");
    assertThat(r.requestId()).isNotBlank();
  }

  @Test
  void aRefusedConnectionIsSurelyNotReceived() throws IOException {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    DarajaConfig c = config();
    DarajaConfig nowhere = new DarajaConfig(URI.create("http://127.0.0.1:" + closedPort), c.consumerKey(),
        c.consumerSecret(), c.shortcode(), c.passkey(), c.initiatorName(), c.securityCredential(), c.callbackUrl(),
        c.resultUrl(), c.queueTimeoutUrl(), null, null, null);
    Outcome<Acknowledgement> o = client(nowhere).b2c(new B2cRequest(id(), B2cRequest.B2cCommand.BusinessPayment,
        new BigDecimal("100"), phone(), "payout", null));
    assertThat(o).isInstanceOf(Outcome.Refused.class);
    assertThat(((Outcome.Refused<Acknowledgement>) o).refusal().kind()).isEqualTo(Refusal.Kind.NO_TOKEN);
  }

  // -------------------------------------------------------------------------------------------------------------- B2B

  @Test
  void aPayBillPaymentCarriesItsAccountNumberAndIsPaid() throws Exception {
    String originator = id();
    Acknowledgement ack = accepted(client(config()).b2b(new B2bRequest(originator,
        B2bRequest.B2bCommand.BusinessPayBill, "888880", new BigDecimal("1200"), "ACC-77", null, "paybill")));
    assertThat(ack.originatorConversationId()).isEqualTo(originator);
    DarajaResult result = nextResult();
    assertThat(result.successful()).isTrue();
    assertThat(result.amount()).contains(new BigDecimal("1200.00"));
    assertThat(result.reference("BillReferenceNumber")).contains("ACC-77");
    JsonNode sent = lastBody("/mpesa/b2b/v1/paymentrequest");
    assertThat(sent.path("CommandID").stringValue()).isEqualTo("BusinessPayBill");
    assertThat(sent.path("RecieverIdentifierType").stringValue()).isEqualTo("4");
  }

  @Test
  void aBuyGoodsPaymentToATillIsPaidAndAScriptedFailureHasItsReason() throws Exception {
    DarajaClient c = client(config());
    accepted(c.b2b(new B2bRequest(id(), B2bRequest.B2bCommand.BusinessBuyGoods, "5123456", new BigDecimal("300"),
        null, "254712000002", "till")));
    assertThat(nextResult().successful()).isTrue();
    daraja.payoutResult("5123457", "2006");
    accepted(c.b2b(new B2bRequest(id(), B2bRequest.B2bCommand.BusinessBuyGoods, "5123457", new BigDecimal("300"),
        null, null, "till")));
    assertThat(ResultCodes.payout(nextResult().resultCode()).reason()).isEqualTo(FailureReason.ACCOUNT_INACTIVE);
  }

  @Test
  void aB2bTimeoutIsUnknownAndSettledByTransactionStatus() throws Exception {
    String originator = id();
    daraja.faults().answerAfter(Duration.ofMillis(1200));
    DarajaClient c = client(config().withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(400)));
    Outcome<Acknowledgement> o = c.b2b(new B2bRequest(originator, B2bRequest.B2bCommand.BusinessPayBill, "888880",
        new BigDecimal("50"), "ACC-1", null, "paybill"));
    assertThat(o).isInstanceOf(Outcome.Unknown.class);
    daraja.faults().answerAfter(Duration.ZERO);
    Thread.sleep(900);
    assertThat(daraja.received("/mpesa/b2b/v1/paymentrequest")).hasSize(1);
    platform.drain(run + "/result");
    accepted(c.transactionStatus(TransactionStatusQuery.byOriginatorConversationId(originator)));
    assertThat(TransactionStatusReport.of(nextResult())).isInstanceOf(TransactionStatusReport.Completed.class);
  }

  // -------------------------------------------------------------------------------- Account Balance and Reversal

  @Test
  void theAccountBalanceResultGivesTheUtilityAccountsAvailableFunds() throws Exception {
    accepted(client(config()).accountBalance("daily reconciliation"));
    var accounts = AccountBalances.of(nextResult()).orElseThrow();
    assertThat(accounts).filteredOn(a -> a.name().equals("Utility Account")).singleElement()
        .satisfies(a -> assertThat(a.available()).isEqualByComparingTo(
            daraja.utilityBalance(DarajaSimulator.SHORTCODE)));
  }

  @Test
  void aReceivedPaymentIsReversedOnceAndASecondReversalIsRefused() throws Exception {
    DarajaClient c = client(config());
    accepted(c.stkPush(StkPushRequest.payBill(new BigDecimal("40"), phone(), "late", null)));
    String receipt = nextStkCallback().payment().receipt();
    accepted(c.reversal(new ReversalRequest(receipt, new BigDecimal("40"), "late payment", null)));
    DarajaResult first = nextResult();
    assertThat(first.successful()).isTrue();
    assertThat(first.parameter("OriginalTransactionID")).contains(receipt);
    accepted(c.reversal(new ReversalRequest(receipt, new BigDecimal("40"), "late payment", null)));
    assertThat(ResultCodes.reversal(nextResult().resultCode()).reason()).isEqualTo(FailureReason.ALREADY_REVERSED);
  }
}
