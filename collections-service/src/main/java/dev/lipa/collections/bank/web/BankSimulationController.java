package dev.lipa.collections.bank.web;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.bank.BankCollectionRecord;
import dev.lipa.collections.bank.BankCollections;
import dev.lipa.collections.bank.BankDeposit;
import dev.lipa.collections.bank.TransactionConflictException;
import dev.lipa.collections.bank.UnknownAccountException;
import dev.lipa.collections.organisations.OrganisationProfiles;
import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Our sandbox deposit simulator, {@code POST /api/sandbox/v1/bank/collection/simulate}: a test-only feature, so a
 * live service has no such path (404 like any unknown path).
 */
@RestController
@ConditionalOnEnvironment(Environment.SANDBOX)
class BankSimulationController {

  static final String NOT_YOUR_ACCOUNT = "No bank account of yours has this account number";

  private final BankCollections collections;
  private final OrganisationProfiles organisations;
  private final ZoneId zone;
  private final Clock clock;

  BankSimulationController(BankCollections collections, OrganisationProfiles organisations,
      CollectionsProperties properties, Clock clock) {
    this.collections = collections;
    this.organisations = organisations;
    this.zone = properties.zone();
    this.clock = clock;
  }

  /**
   * A test deposit to one of the caller's own account numbers (as set by the platform team). 201 with the record; a
   * repeated transactionref answers 200 with the record stored the first time.
   */
  @PostMapping(path = "/api/sandbox/v1/bank/collection/simulate", consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Envelope<BankCollectionRecord>> simulate(@RequestBody JsonNode body, HttpServletRequest request) {
    BankDeposit deposit = BankDeposit.fromSimulation(body, LocalDate.now(clock.withZone(zone)));
    BankCollections.Received received;
    try {
      received = collections.simulate(Caller.organisation(request), deposit);
    } catch (UnknownAccountException e) {
      throw ApiException.notFound(NOT_YOUR_ACCOUNT);
    } catch (TransactionConflictException e) {
      throw ApiException.conflict(e.getMessage());
    }
    BankCollectionRecord record = BankCollectionRecord.of(received.collection(),
        organisations.bankShape(received.collection().organisationId()), zone);
    return received.created()
        ? ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("Bank collection simulated", record))
        : ResponseEntity.ok(Envelope.ok("Bank collection already received", record));
  }
}
