package dev.lipa.collections.bank.web;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.bank.BankCollectionRecord;
import dev.lipa.collections.bank.BankCollections;
import dev.lipa.collections.bank.BankDeposit;
import dev.lipa.collections.bank.TransactionConflictException;
import dev.lipa.collections.bank.UnknownAccountException;
import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.json.UnreadableJson;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.ValidationException;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Partner banks tell us of deposits here (our endpoint; the spec does not show how bank collections arrive). Not a
 * merchant endpoint: no bearer token (it is in {@code lipa.security.public-paths}); each bank signs its requests
 * instead ({@link BankSignatures}). Answers 201 with the stored record (without organisation) for a new deposit, 200
 * with the same for a repeated transactionref, 422 for an account number no organisation holds. Sandbox stack only
 * until a live bank rail exists: a live service has no such path.
 */
@RestController
@ConditionalOnEnvironment(Environment.SANDBOX)
class BankNotificationController {

  static final String PATH = "/api/v1/banks/{bankCode}/notifications";
  static final String REFUSED = "invalid or missing " + BankSignatures.HEADER + " signature";
  private static final Logger log = LoggerFactory.getLogger(BankNotificationController.class);

  private final BankCollections collections;
  private final BankSignatures signatures;
  private final JsonMapper json;
  private final ZoneId zone;

  BankNotificationController(BankCollections collections, CollectionsProperties properties, JsonMapper json,
      Clock clock) {
    this.collections = collections;
    this.signatures = new BankSignatures(properties.bank().partners().entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().secret())),
        properties.bank().signatureTolerance(), clock);
    this.json = json;
    this.zone = properties.zone();
  }

  /** The raw bytes are what the bank signed, so the body is read as bytes and parsed only once they are verified. */
  @PostMapping(path = PATH, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Envelope<BankCollectionRecord>> receive(@PathVariable String bankCode,
      @RequestHeader(name = BankSignatures.HEADER, required = false) String signature,
      @RequestBody(required = false) byte[] body) {
    byte[] raw = body == null ? new byte[0] : body;
    if (!signatures.verify(bankCode, signature, raw)) {
      log.warn("refused a notification for bank '{}': {} signature", bankCode,
          signature == null ? "no" : "invalid, stale or unknown-bank");
      throw new ApiException(HttpStatus.UNAUTHORIZED, REFUSED);
    }
    JsonNode tree;
    try {
      tree = json.readTree(raw);
    } catch (JacksonException e) {
      // a value the reader refused ({"amount":NaN}) is named like any other field; a broken body is the body
      UnreadableJson problem = UnreadableJson.of(e).orElseThrow();
      throw ValidationException.of(problem.field(), problem.field().equals(UnreadableJson.BODY)
          ? "must be a JSON object" : problem.message());
    }
    BankDeposit deposit = BankDeposit.fromNotification(tree);
    BankCollections.Received received;
    try {
      received = collections.receive(bankCode, deposit);
    } catch (UnknownAccountException e) {
      // authentic and well-formed, but nothing to credit: 422, which a bank does not retry like a 5xx
      return ResponseEntity.status(HttpStatus.UNPROCESSABLE_CONTENT).body(new Envelope<>(
          HttpStatus.UNPROCESSABLE_CONTENT.value(), "No organisation holds this account number", null,
          Map.of("accountnumber", List.of("accountnumber is not held by any organisation"))));
    } catch (TransactionConflictException e) {
      throw ApiException.conflict(e.getMessage());
    }
    BankCollectionRecord record = BankCollectionRecord.of(received.collection(), null, zone);
    return received.created()
        ? ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("Bank collection received", record))
        : ResponseEntity.ok(Envelope.ok("Bank collection already received", record));
  }
}
