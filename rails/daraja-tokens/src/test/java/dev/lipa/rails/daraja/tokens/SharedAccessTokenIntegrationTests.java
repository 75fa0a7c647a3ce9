package dev.lipa.rails.daraja.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.mongodb.client.MongoDatabase;
import dev.lipa.common.crypto.MasterKeyRing;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.daraja.simulator.DarajaSimulator;
import dev.lipa.daraja.simulator.Faults;
import dev.lipa.rails.daraja.Acknowledgement;
import dev.lipa.rails.daraja.DarajaClient;
import dev.lipa.rails.daraja.DarajaConfig;
import dev.lipa.rails.daraja.Outcome;
import dev.lipa.rails.daraja.SharedTokens;
import dev.lipa.rails.daraja.credential.SecurityCredentials;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Two replicas of a service (two connector clients of one Daraja app, each with its own HTTP client) against the
 * Daraja simulator, which invalidates an app's earlier tokens whenever it generates one, as Daraja does. With the
 * service's store they share one token; without it they take turns invalidating each other's.
 */
class SharedAccessTokenIntegrationTests {

  private static final String OAUTH = "/oauth/v1/generate";
  private static final String BALANCE = "/mpesa/accountbalance/v1/query";
  private static final URI NOWHERE = URI.create("http://127.0.0.1:1/results");

  private static DarajaSimulator daraja;

  private final List<DarajaClient> clients = new ArrayList<>();
  private MongoDatabase database;
  private DarajaTokenStore store;

  @BeforeAll
  static void start() throws IOException {
    daraja = DarajaSimulator.start();
  }

  @AfterAll
  static void stop() {
    daraja.close();
  }

  @BeforeEach
  void clean() {
    daraja.reset();
    daraja.faults().callbacks(Faults.CallbackMode.NEVER); // Account Balance's results are not what is tested here
    database = SharedInfra.mongoClient().getDatabase("daraja-tokens-" + UUID.randomUUID());
    store = new DarajaTokenStore(database, new SecretEnvelope(MasterKeyRing.parse(SharedInfra.MASTER_KEYS)));
  }

  @AfterEach
  void closeClients() {
    clients.forEach(DarajaClient::close);
  }

  private static DarajaConfig config() {
    String credential = SecurityCredentials.encrypt(DarajaSimulator.INITIATOR_PASSWORD.toCharArray(),
        daraja.certificate().certificate());
    return new DarajaConfig(daraja.baseUrl(), DarajaSimulator.CONSUMER_KEY, DarajaSimulator.CONSUMER_SECRET,
        DarajaSimulator.SHORTCODE, DarajaSimulator.PASSKEY, DarajaSimulator.INITIATOR, credential, NOWHERE, NOWHERE,
        NOWHERE, Duration.ofSeconds(1), Duration.ofSeconds(2), null);
  }

  /** A replica's client of the simulator's app, its token in {@code tokens}. */
  private DarajaClient replica(SharedTokens tokens) {
    DarajaClient client = new DarajaClient(config(), CircuitBreakerRegistry.ofDefaults(), Clock.systemUTC(), tokens);
    clients.add(client);
    return client;
  }

  private static void accepted(Outcome<Acknowledgement> outcome) {
    assertThat(outcome).isInstanceOf(Outcome.Accepted.class);
  }

  /** Every call of {@code perReplica} on each replica at once, each answered Accepted. */
  private static void atOnce(int perReplica, DarajaClient... replicas) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Callable<Outcome<Acknowledgement>>> calls = new ArrayList<>();
    for (DarajaClient replica : replicas) {
      for (int i = 0; i < perReplica; i++) {
        calls.add(() -> {
          go.await();
          return replica.accountBalance("balance");
        });
      }
    }
    try (ExecutorService pool = Executors.newFixedThreadPool(calls.size())) {
      List<Future<Outcome<Acknowledgement>>> answers = new ArrayList<>();
      calls.forEach(c -> answers.add(pool.submit(c)));
      go.countDown();
      for (Future<Outcome<Acknowledgement>> answer : answers) {
        accepted(answer.get());
      }
    }
  }

  @Test
  void manyRequestsAlternatingBetweenTwoReplicasUseOneTokenAndNoneIsRefused() {
    DarajaClient a = replica(store);
    DarajaClient b = replica(store);

    for (int i = 0; i < 10; i++) {
      accepted(a.accountBalance("balance"));
      accepted(b.accountBalance("balance"));
    }

    assertThat(daraja.received(OAUTH)).hasSize(1);
    assertThat(daraja.received(BALANCE)).as("no request sent twice after a 401").hasSize(20);
  }

  @Test
  void withoutTheSharedStoreTwoReplicasInvalidateEachOthersTokensRequestAfterRequest() {
    // why the store exists: each replica's refresh makes the other's next request a 401, a refresh and a resend
    DarajaClient a = replica(SharedTokens.inMemory());
    DarajaClient b = replica(SharedTokens.inMemory());

    for (int i = 0; i < 5; i++) {
      accepted(a.accountBalance("balance"));
      accepted(b.accountBalance("balance"));
    }

    assertThat(daraja.received(OAUTH)).hasSizeGreaterThan(1);
    assertThat(daraja.received(BALANCE)).hasSizeGreaterThan(10);
  }

  @Test
  void concurrentFirstUseByBothReplicasGeneratesOneToken() throws Exception {
    DarajaClient a = replica(store);
    DarajaClient b = replica(store);

    atOnce(4, a, b);

    assertThat(daraja.received(OAUTH)).hasSize(1);
    assertThat(daraja.received(BALANCE)).hasSize(8);
  }

  @Test
  void aTokenDarajaExpiredIsRefreshedOnceForBothReplicasAndNeverLogged() throws Exception {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    logs.start();
    root.addAppender(logs);
    try {
      DarajaClient a = replica(store);
      DarajaClient b = replica(store);
      accepted(a.accountBalance("balance"));
      accepted(b.accountBalance("balance"));
      SharedTokens.App app = SharedTokens.App.of(config());
      String first = store.current(app).orElseThrow().value();
      daraja.expireTokens();

      atOnce(3, a, b);

      assertThat(daraja.received(OAUTH)).hasSize(2);
      String second = store.current(app).orElseThrow().value();
      assertThat(second).isNotEqualTo(first);
      assertThat(logs.list).extracting(ILoggingEvent::getFormattedMessage)
          .noneMatch(line -> line.contains(first) || line.contains(second));
    } finally {
      root.detachAppender(logs);
    }
  }

  @Test
  void aReplicaThatDiedHoldingTheClaimHoldsTheOtherUpNoLongerThanTheClaim() {
    Duration claim = Duration.ofMillis(1500);
    Instant now = Instant.now();
    // the dead replica: it claimed the first refresh and never published nor released
    assertThat(store.claim(SharedTokens.App.of(config()), 0, now, now.plus(claim))).isPresent();
    DarajaClient b = replica(store);

    long start = System.nanoTime();
    accepted(b.accountBalance("balance"));
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(took).as("it waited for the claim").isGreaterThan(claim.minusMillis(300));
    assertThat(took).as("and not much longer").isLessThan(claim.plusSeconds(3));
    assertThat(daraja.received(OAUTH)).hasSize(1);
  }
}
