package dev.lipa.rails.daraja;

import dev.lipa.rails.daraja.result.ResultCodes;
import dev.lipa.rails.daraja.result.ResultMeaning;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Safaricom's M-Pesa Daraja API for one shortcode: STK push and query, B2C (v3), B2B (BusinessPayBill,
 * BusinessBuyGoods), Transaction Status, Account Balance and Reversal, with the OAuth token cached
 * ({@link AccessTokens}) and shared through {@link SharedTokens} with every other client of the same Daraja app.
 *
 * <p>Every call goes through its API family's circuit breaker, a named resilience4j instance taken from the registry
 * ({@link #BREAKER_STK}, {@link #BREAKER_B2C}, ...), so that its settings live where the service configures
 * resilience4j. The asynchronous APIs answer an {@link Outcome}: {@link Outcome.Unknown} is never sent again by the
 * connector (a payout in that state is settled by {@link #transactionStatus}); only a refused token is retried, once,
 * with a fresh token, because Daraja refuses such a request before acting on it.
 */
public final class DarajaClient implements AutoCloseable {

  public static final String BREAKER_OAUTH = "daraja-oauth";
  public static final String BREAKER_STK = "daraja-stk";
  public static final String BREAKER_B2C = "daraja-b2c";
  public static final String BREAKER_B2B = "daraja-b2b";
  /** STK Query, Transaction Status and Account Balance: questions that move no money. */
  public static final String BREAKER_QUERY = "daraja-query";
  public static final String BREAKER_REVERSAL = "daraja-reversal";

  /** Daraja's timestamps are in Kenyan time. */
  public static final ZoneId NAIROBI = ZoneId.of("Africa/Nairobi");
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss", Locale.ROOT);

  /** Daraja's codes for a refused access token (the STK page says 404.001.03, the Transaction Status page 400.003.01). */
  private static final Set<String> TOKEN_REFUSED_CODES = Set.of("404.001.03", "400.003.01");
  /** STK push's documented refusals share this code and an HTTP 500 (wrong password, unknown merchant, busy subscriber). */
  private static final String STK_REFUSED = "500.001.1001";

  private static final Logger log = LoggerFactory.getLogger(DarajaClient.class);

  private final DarajaConfig config;
  private final Clock clock;
  private final HttpClient httpClient;
  private final DarajaHttp http;
  private final AccessTokens tokens;
  private final CircuitBreaker stk;
  private final CircuitBreaker b2c;
  private final CircuitBreaker b2b;
  private final CircuitBreaker query;
  private final CircuitBreaker reversal;

  /** A client with resilience4j's default circuit breakers, the system clock and its own token in memory. */
  public static DarajaClient create(DarajaConfig config) {
    return new DarajaClient(config, CircuitBreakerRegistry.ofDefaults(), Clock.systemUTC());
  }

  /** A client that keeps its app's token to itself, in memory: for a single process (one replica, a test). */
  public DarajaClient(DarajaConfig config, CircuitBreakerRegistry breakers, Clock clock) {
    this(config, breakers, clock, SharedTokens.inMemory());
  }

  /** A client whose app's token is kept in {@code shared}, with every client of the app that uses the same store. */
  public DarajaClient(DarajaConfig config, CircuitBreakerRegistry breakers, Clock clock, SharedTokens shared) {
    this.config = config;
    this.clock = clock;
    this.httpClient = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(config.connectTimeout())
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    this.http = new DarajaHttp(httpClient);
    this.tokens = new AccessTokens(config, shared,
        new OAuth(config, httpClient, clock, breakers.circuitBreaker(BREAKER_OAUTH)), clock);
    this.stk = breakers.circuitBreaker(BREAKER_STK);
    this.b2c = breakers.circuitBreaker(BREAKER_B2C);
    this.b2b = breakers.circuitBreaker(BREAKER_B2B);
    this.query = breakers.circuitBreaker(BREAKER_QUERY);
    this.reversal = breakers.circuitBreaker(BREAKER_REVERSAL);
  }

  /** The shortcode this client acts for. */
  public String shortcode() {
    return config.shortcode();
  }

  /**
   * Prompts the customer. {@link Outcome.Unknown} here has no CheckoutRequestID to query by: the push is matched, if
   * it was made, by its own CallBackURL ({@link StkPushRequest#callbackUrl()}).
   */
  public Outcome<StkPushAnswer> stkPush(StkPushRequest request) {
    requirePasskey();
    String timestamp = timestamp();
    ObjectNode body = DarajaHttp.JSON.createObjectNode()
        .put("BusinessShortCode", config.shortcode())
        .put("Password", password(timestamp))
        .put("Timestamp", timestamp)
        .put("TransactionType", request.type().wire())
        .put("Amount", DarajaFields.wholeAmount("Amount", request.amount()))
        .put("PartyA", request.phoneNumber())
        .put("PartyB", request.partyB() == null ? config.shortcode() : request.partyB())
        .put("PhoneNumber", request.phoneNumber())
        .put("CallBackURL", url(request.callbackUrl() == null ? config.callbackUrl() : request.callbackUrl(),
            "CallBackURL"))
        .put("AccountReference", request.accountReference())
        .put("TransactionDesc", request.transactionDesc() == null ? request.accountReference()
            : request.transactionDesc());
    return send(stk, "/mpesa/stkpush/v1/processrequest", body, null, true,
        b -> new StkPushAnswer(DarajaHttp.text(b, "MerchantRequestID"), DarajaHttp.text(b, "CheckoutRequestID"),
            DarajaHttp.text(b, "ResponseCode"), DarajaHttp.text(b, "ResponseDescription"),
            DarajaHttp.text(b, "CustomerMessage")));
  }

  /**
   * Asks for the result of a push. "The transaction is being processed" (HTTP 500, {@code 500.001.1001}) and "still
   * under processing" (ResultCode {@code 4999}) are {@link StkQueryResult.StillProcessing}, not a result.
   */
  public StkQueryResult stkQuery(String checkoutRequestId) {
    requirePasskey();
    if (checkoutRequestId == null || !checkoutRequestId.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new DarajaFieldException("CheckoutRequestID", "must be Daraja's id of the push");
    }
    String timestamp = timestamp();
    ObjectNode body = DarajaHttp.JSON.createObjectNode()
        .put("BusinessShortCode", config.shortcode())
        .put("Password", password(timestamp))
        .put("Timestamp", timestamp)
        .put("CheckoutRequestID", checkoutRequestId);
    for (int attempt = 1; ; attempt++) {
      if (!query.tryAcquirePermission()) {
        return new StkQueryResult.NotAnswered("circuit breaker " + BREAKER_QUERY + " is open");
      }
      String token;
      try {
        token = tokens.token();
      } catch (AccessTokens.TokenUnavailable e) {
        query.releasePermission();
        return new StkQueryResult.NotAnswered("no access token: " + e.refusal().message());
      }
      long start = System.nanoTime();
      DarajaHttp.Exchange exchange = http.post(uri("/mpesa/stkpushquery/v1/query"), token, body,
          config.requestTimeout());
      long took = System.nanoTime() - start;
      switch (exchange) {
        case DarajaHttp.NotConnected n -> {
          query.onError(took, TimeUnit.NANOSECONDS, new IOException(n.cause()));
          return new StkQueryResult.NotAnswered("not connected: " + n.cause());
        }
        case DarajaHttp.Lost l -> {
          query.onError(took, TimeUnit.NANOSECONDS, new IOException(l.cause()));
          return new StkQueryResult.NotAnswered("no answer: " + l.cause());
        }
        case DarajaHttp.Answered a -> {
          DarajaHttp.ErrorBody error = DarajaHttp.errorBody(a.body());
          if (tokenRefused(a, error)) {
            query.onSuccess(took, TimeUnit.NANOSECONDS);
            tokens.invalidate(token);
            if (attempt == 1) {
              continue;
            }
            return new StkQueryResult.NotAnswered("access token refused");
          }
          if (a.status() == 200 && a.body() != null) {
            query.onSuccess(took, TimeUnit.NANOSECONDS);
            String responseCode = DarajaHttp.text(a.body(), "ResponseCode");
            String resultCode = DarajaHttp.text(a.body(), "ResultCode");
            if (isZero(responseCode) && resultCode != null && resultCode.matches("[A-Za-z0-9_]{1,16}")) {
              if (ResultCodes.stk(resultCode).outcome() == ResultMeaning.Outcome.UNSETTLED) {
                // 4999 "still under processing": a result code that is no result (read as a failure, it would fail
                // a push the customer is about to pay)
                return new StkQueryResult.StillProcessing(resultCode, DarajaHttp.text(a.body(), "ResultDesc"));
              }
              return new StkQueryResult.Completed(DarajaHttp.text(a.body(), "MerchantRequestID"),
                  DarajaHttp.text(a.body(), "CheckoutRequestID"), resultCode,
                  DarajaHttp.text(a.body(), "ResultDesc"));
            }
            return new StkQueryResult.NotAnswered("answer without a result (ResponseCode " + responseCode + ")");
          }
          if (STK_REFUSED.equals(error.errorCode()) && error.errorMessage() != null
              && error.errorMessage().toLowerCase(Locale.ROOT).contains("being processed")) {
            // the customer has not answered yet: Daraja is healthy, the push is simply not finished
            query.onSuccess(took, TimeUnit.NANOSECONDS);
            return new StkQueryResult.StillProcessing(error.errorCode(), error.errorMessage());
          }
          if (a.status() >= 500) {
            query.onError(took, TimeUnit.NANOSECONDS, new IOException("HTTP " + a.status()));
          } else {
            query.onSuccess(took, TimeUnit.NANOSECONDS);
          }
          return new StkQueryResult.NotAnswered("HTTP " + a.status() + " " + error.errorCode() + " "
              + error.errorMessage());
        }
      }
    }
  }

  /** Pays a customer (B2C v3). {@link Outcome.Unknown} carries the request's OriginatorConversationID to settle by. */
  public Outcome<Acknowledgement> b2c(B2cRequest request) {
    requireInitiator();
    ObjectNode body = DarajaHttp.JSON.createObjectNode()
        .put("OriginatorConversationID", request.originatorConversationId())
        .put("InitiatorName", config.initiatorName())
        .put("SecurityCredential", config.securityCredential())
        .put("CommandID", request.command().name())
        .put("Amount", DarajaFields.wholeAmount("Amount", request.amount()))
        .put("PartyA", config.shortcode())
        .put("PartyB", request.phoneNumber())
        .put("Remarks", request.remarks())
        .put("QueueTimeOutURL", url(config.queueTimeoutUrl(), "QueueTimeOutURL"))
        .put("ResultURL", url(config.resultUrl(), "ResultURL"));
    if (request.occasion() != null) {
      body.put("Occassion", request.occasion()); // Daraja's spelling
    }
    return send(b2c, "/mpesa/b2c/v3/paymentrequest", body, request.originatorConversationId(), false,
        DarajaClient::acknowledgement);
  }

  /** Pays a paybill or a till (B2B). {@link Outcome.Unknown} carries the OriginatorConversationID to settle by. */
  public Outcome<Acknowledgement> b2b(B2bRequest request) {
    requireInitiator();
    ObjectNode body = DarajaHttp.JSON.createObjectNode()
        .put("OriginatorConversationID", request.originatorConversationId())
        .put("Initiator", config.initiatorName())
        .put("SecurityCredential", config.securityCredential())
        .put("CommandID", request.command().name())
        .put("SenderIdentifierType", "4")
        .put("RecieverIdentifierType", "4") // Daraja's spelling
        .put("Amount", DarajaFields.wholeAmount("Amount", request.amount()))
        .put("PartyA", config.shortcode())
        .put("PartyB", request.partyB())
        .put("Remarks", request.remarks())
        .put("QueueTimeOutURL", url(config.queueTimeoutUrl(), "QueueTimeOutURL"))
        .put("ResultURL", url(config.resultUrl(), "ResultURL"));
    if (request.accountReference() != null) {
      body.put("AccountReference", request.accountReference());
    }
    if (request.requester() != null) {
      body.put("Requester", request.requester());
    }
    return send(b2b, "/mpesa/b2b/v1/paymentrequest", body, request.originatorConversationId(), false,
        DarajaClient::acknowledgement);
  }

  /**
   * Asks for the status of a transaction; the answer arrives on the ResultURL (parse it with
   * {@code DarajaCallbacks.result} and read it with {@code TransactionStatusReport.of}). Moves no money, so an
   * unanswered question may simply be asked again.
   */
  public Outcome<Acknowledgement> transactionStatus(TransactionStatusQuery question) {
    requireInitiator();
    ObjectNode body = DarajaHttp.JSON.createObjectNode()
        .put("Initiator", config.initiatorName())
        .put("SecurityCredential", config.securityCredential())
        .put("CommandID", "TransactionStatusQuery")
        .put("PartyA", config.shortcode())
        .put("IdentifierType", "4")
        .put("ResultURL", url(config.resultUrl(), "ResultURL"))
        .put("QueueTimeOutURL", url(config.queueTimeoutUrl(), "QueueTimeOutURL"))
        .put("Remarks", question.remarks())
        .put("Occasion", "status");
    if (question.transactionId() != null) {
      body.put("TransactionID", question.transactionId());
    }
    if (question.originatorConversationId() != null) {
      body.put("OriginalConversationID", question.originatorConversationId());
    }
    return send(query, "/mpesa/transactionstatus/v1/query", body, null, false, DarajaClient::acknowledgement);
  }

  /** Asks for the shortcode's balances; the answer arrives on the ResultURL ({@code AccountBalances.parse}). */
  public Outcome<Acknowledgement> accountBalance(String remarks) {
    requireInitiator();
    ObjectNode body = DarajaHttp.JSON.createObjectNode()
        .put("Initiator", config.initiatorName())
        .put("SecurityCredential", config.securityCredential())
        .put("CommandID", "AccountBalance")
        .put("PartyA", config.shortcode())
        .put("IdentifierType", "4")
        .put("Remarks", DarajaFields.remarks(remarks))
        .put("QueueTimeOutURL", url(config.queueTimeoutUrl(), "QueueTimeOutURL"))
        .put("ResultURL", url(config.resultUrl(), "ResultURL"));
    return send(query, "/mpesa/accountbalance/v1/query", body, null, false, DarajaClient::acknowledgement);
  }

  /** Reverses a payment received on this shortcode. Moves money: {@link Outcome.Unknown} is never resent either. */
  public Outcome<Acknowledgement> reversal(ReversalRequest request) {
    requireInitiator();
    ObjectNode body = DarajaHttp.JSON.createObjectNode()
        .put("Initiator", config.initiatorName())
        .put("SecurityCredential", config.securityCredential())
        .put("CommandID", "TransactionReversal")
        .put("TransactionID", request.transactionId())
        .put("Amount", DarajaFields.wholeAmount("Amount", request.amount()))
        .put("ReceiverParty", config.shortcode())
        .put("RecieverIdentifierType", "11")
        .put("ResultURL", url(config.resultUrl(), "ResultURL"))
        .put("QueueTimeOutURL", url(config.queueTimeoutUrl(), "QueueTimeOutURL"))
        .put("Remarks", request.remarks());
    if (request.occasion() != null) {
      body.put("Occasion", request.occasion());
    }
    return send(reversal, "/mpesa/reversal/v1/request", body, null, false, DarajaClient::acknowledgement);
  }

  /** The STK password: base64(shortcode + passkey + timestamp). */
  public static String password(String shortcode, String passkey, String timestamp) {
    return Base64.getEncoder().encodeToString((shortcode + passkey + timestamp).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    httpClient.close();
  }

  private <T> Outcome<T> send(CircuitBreaker breaker, String path, ObjectNode body, String originatorId,
      boolean stkPush, Function<JsonNode, T> acknowledgement) {
    for (int attempt = 1; ; attempt++) {
      if (!breaker.tryAcquirePermission()) {
        return new Outcome.Refused<>(new Refusal(Refusal.Kind.CIRCUIT_OPEN, 0, null,
            "circuit breaker " + breaker.getName() + " is open", null));
      }
      String token;
      try {
        token = tokens.token();
      } catch (AccessTokens.TokenUnavailable e) {
        breaker.releasePermission();
        return new Outcome.Refused<>(e.refusal());
      }
      long start = System.nanoTime();
      DarajaHttp.Exchange exchange = http.post(uri(path), token, body, config.requestTimeout());
      long took = System.nanoTime() - start;
      switch (exchange) {
        case DarajaHttp.NotConnected n -> {
          breaker.onError(took, TimeUnit.NANOSECONDS, new IOException(n.cause()));
          return new Outcome.Refused<>(new Refusal(Refusal.Kind.NOT_CONNECTED, 0, null, n.cause(), null));
        }
        case DarajaHttp.Lost l -> {
          breaker.onError(took, TimeUnit.NANOSECONDS, new IOException(l.cause()));
          log.warn("Daraja {} for shortcode {} is UNKNOWN ({}): not resent, to be settled by its ids", path,
              config.shortcode(), l.cause());
          return new Outcome.Unknown<>(originatorId, l.cause(), 0, null);
        }
        case DarajaHttp.Answered a -> {
          DarajaHttp.ErrorBody error = DarajaHttp.errorBody(a.body());
          if (tokenRefused(a, error)) {
            // refused at Daraja's gateway, before anything was acted upon: one more try with a fresh token is safe
            breaker.onSuccess(took, TimeUnit.NANOSECONDS);
            tokens.invalidate(token);
            if (attempt == 1) {
              continue;
            }
            return new Outcome.Refused<>(new Refusal(Refusal.Kind.TOKEN_REFUSED, a.status(), error.errorCode(),
                error.errorMessage(), error.requestId()));
          }
          if (a.status() >= 200 && a.status() < 300) {
            breaker.onSuccess(took, TimeUnit.NANOSECONDS);
            String responseCode = a.body() == null ? null : DarajaHttp.text(a.body(), "ResponseCode");
            if (responseCode == null) {
              return new Outcome.Unknown<>(originatorId, "HTTP " + a.status() + " without a ResponseCode",
                  0, null);
            }
            if (isZero(responseCode)) {
              return new Outcome.Accepted<>(acknowledgement.apply(a.body()));
            }
            return new Outcome.Refused<>(new Refusal(Refusal.Kind.REJECTED, a.status(), responseCode,
                DarajaHttp.text(a.body(), "ResponseDescription"), null));
          }
          if (a.status() >= 400 && a.status() < 500) {
            breaker.onSuccess(took, TimeUnit.NANOSECONDS);
            return new Outcome.Refused<>(new Refusal(Refusal.Kind.INVALID_REQUEST, a.status(), error.errorCode(),
                error.errorMessage(), error.requestId()));
          }
          if (stkPush && a.status() == 500 && STK_REFUSED.equals(error.errorCode())) {
            breaker.onSuccess(took, TimeUnit.NANOSECONDS);
            return new Outcome.Refused<>(new Refusal(Refusal.Kind.REJECTED, a.status(), error.errorCode(),
                error.errorMessage(), error.requestId()));
          }
          // 5xx (spike arrest included) or anything else after the request was sent: it may have been acted upon
          breaker.onError(took, TimeUnit.NANOSECONDS, new IOException("HTTP " + a.status()));
          log.warn("Daraja {} for shortcode {} is UNKNOWN (HTTP {} {} {}): not resent", path, config.shortcode(),
              a.status(), error.errorCode(), error.errorMessage());
          return new Outcome.Unknown<>(originatorId, "HTTP " + a.status()
              + (error.errorMessage() == null ? "" : " " + error.errorMessage()), a.status(), error.errorCode());
        }
      }
    }
  }

  private static boolean tokenRefused(DarajaHttp.Answered a, DarajaHttp.ErrorBody error) {
    return a.status() == 401 || (a.status() >= 400 && TOKEN_REFUSED_CODES.contains(error.errorCode()));
  }

  private static boolean isZero(String code) {
    return code != null && code.matches("0+");
  }

  private static Acknowledgement acknowledgement(JsonNode b) {
    return new Acknowledgement(DarajaHttp.text(b, "OriginatorConversationID"), DarajaHttp.text(b, "ConversationID"),
        DarajaHttp.text(b, "ResponseCode"), DarajaHttp.text(b, "ResponseDescription"));
  }

  private URI uri(String path) {
    return URI.create(DarajaHttp.join(config.baseUrl(), path));
  }

  private String timestamp() {
    return TIMESTAMP.format(clock.instant().atZone(NAIROBI));
  }

  private String password(String timestamp) {
    return password(config.shortcode(), config.passkey(), timestamp);
  }

  private void requirePasskey() {
    if (config.passkey() == null || config.passkey().isBlank()) {
      throw new IllegalStateException("shortcode " + config.shortcode() + " has no passkey: no STK push or query");
    }
  }

  private void requireInitiator() {
    if (config.initiatorName() == null || config.securityCredential() == null) {
      throw new IllegalStateException("shortcode " + config.shortcode()
          + " has no initiator and security credential: no payouts or queries");
    }
  }

  private static String url(URI url, String field) {
    if (url == null) {
      throw new IllegalStateException(field + " is not configured");
    }
    return url.toString();
  }
}
