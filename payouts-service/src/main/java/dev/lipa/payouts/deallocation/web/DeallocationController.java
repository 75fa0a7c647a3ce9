package dev.lipa.payouts.deallocation.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import dev.lipa.common.idempotency.IdempotentRequest;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.JsonFields;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.payouts.deallocation.Transfer;
import dev.lipa.payouts.deallocation.Transfers;
import dev.lipa.payouts.ledger.InsufficientBalanceException;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.organisations.Organisations;
import dev.lipa.payouts.requests.OnceOnly;
import dev.lipa.payouts.requests.RequestConflictException;
import dev.lipa.payouts.requests.RequestIdentity;
import jakarta.servlet.http.HttpServletRequest;
import java.math.BigDecimal;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Endpoints 15 and 16 of the spec (the de-allocation lists) and our additions that create transfers:
 * {@code POST /api/sandbox/v1/de-allocations/allocate} (a parent funds one of its sub-accounts) and
 * {@code POST /api/sandbox/v1/de-allocations} (funds go back from a sub-account to its parent; the parent or the
 * sub-account itself may ask). Body of both: {@code {subAccountId, amount, currency, referenceId}} (currency KSH by
 * default, referenceId optional). Both honour an {@code Idempotency-Key} and a {@code referenceId} like payouts.
 */
@RestController
class DeallocationController {

  static final String BASE = StackEnvironment.API + "/de-allocations";
  /** The idempotency keys' scope: the sandbox path names it in both environments (each has its own store). */
  static final String CREATE_SCOPE = "POST /api/sandbox/v1/de-allocations";
  static final String ALLOCATE = BASE + "/allocate";
  static final String ALLOCATE_SCOPE = "POST /api/sandbox/v1/de-allocations/allocate";
  private static final String NOT_FOUND = "sub-account not found";

  private final Transfers transfers;
  private final Organisations organisations;
  private final IdempotentEndpoint idempotent;

  DeallocationController(Transfers transfers, Organisations organisations, IdempotentEndpoint idempotent) {
    this.transfers = transfers;
    this.organisations = organisations;
    this.idempotent = idempotent;
  }

  @PostMapping(path = ALLOCATE, consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> allocate(@RequestBody JsonNode body, HttpServletRequest request) {
    Command command = Command.from(body, request);
    OrganisationId caller = Caller.organisation(request);
    if (!organisations.isSubAccountOf(command.subAccountId(), caller)) {
      throw ApiException.notFound(NOT_FOUND);
    }
    return run(ALLOCATE_SCOPE, Transfer.Type.ALLOCATION, caller, command, body, "allocation");
  }

  @PostMapping(path = BASE, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> deallocate(@RequestBody JsonNode body, HttpServletRequest request) {
    Command command = Command.from(body, request);
    OrganisationId caller = Caller.organisation(request);
    OrganisationId parent = organisations.parentOf(command.subAccountId()).orElse(null);
    if (parent == null || !(caller.equals(parent) || caller.equals(command.subAccountId()))) {
      throw ApiException.notFound(NOT_FOUND);
    }
    return run(CREATE_SCOPE, Transfer.Type.DEALLOCATION, parent, command, body, "de-allocation");
  }

  /**
   * Runs a checked request under its Idempotency-Key (refusals above never touch the key store) and answers with
   * the transfer; a repeat of an earlier request gets that request's answer, marked {@code Idempotent-Replayed}.
   */
  private ResponseEntity<?> run(String scope, Transfer.Type type, OrganisationId parent, Command command,
      JsonNode body, String what) {
    OrganisationId caller = command.caller();
    String fingerprint = RequestFingerprint.of(body);
    IdempotentRequest keyed = new IdempotentRequest(caller, scope, command.idempotencyKey(), fingerprint);
    return idempotent.execute(keyed, claim -> {
      RequestIdentity identity = new RequestIdentity(caller, scope, fingerprint, command.referenceId(),
          claim == null ? null : claim.id());
      OnceOnly.Result<Transfer> execution;
      try {
        execution = transfers.execute(type, parent, command.subAccountId(), command.currency(), command.amount(),
            identity);
      } catch (InsufficientBalanceException e) {
        throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, e.getMessage());
      } catch (RequestConflictException e) {
        throw ApiException.conflict(e.getMessage());
      }
      ResponseEntity.BodyBuilder response = ResponseEntity.status(HttpStatus.CREATED);
      if (execution.replayed()) {
        response.header(IdempotencyKeys.REPLAYED_HEADER, "true");
      }
      return response.body(Envelope.created(what + " completed", Item.of(execution.record())));
    });
  }

  /** The caller's de-allocations (as a sub-account), newest first. */
  @GetMapping(path = BASE + "/org/all", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<Item>> mine(HttpServletRequest request) {
    return Envelope.ok("OK", transfers.deallocationsOf(Caller.organisation(request)).stream().map(Item::of)
        .toList());
  }

  /** Every de-allocation of the parent's sub-accounts; only the parent itself may ask (404 for anyone else). */
  @GetMapping(path = BASE + "/org/all/admins", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<Item>> underParent(@RequestParam String parentOrganisationId, HttpServletRequest request) {
    OrganisationId caller = Caller.organisation(request);
    if (!caller.value().equals(parentOrganisationId.strip())) {
      throw ApiException.notFound("organisation not found");
    }
    return Envelope.ok("OK", transfers.deallocationsUnder(caller).stream().map(Item::of).toList());
  }

  /** The spec's de-allocation item. */
  @JsonPropertyOrder({"status", "requestId", "amount"})
  record Item(String status, String requestId, BigDecimal amount) {

    static Item of(Transfer transfer) {
      return new Item(transfer.status().name(), transfer.requestId().toString(), transfer.amount());
    }
  }

  /** A checked transfer request: the body's fields, the Idempotency-Key header and the caller. */
  record Command(OrganisationId subAccountId, BigDecimal amount, Currency currency, String referenceId,
      String idempotencyKey, OrganisationId caller) {

    /** Reads the body and the header; one 400 names every failing field, the header's included. */
    static Command from(JsonNode body, HttpServletRequest request) {
      JsonFields fields = JsonFields.of(body);
      String key = IdempotencyKeys.readKey(request.getHeader(IdempotencyKeys.HEADER), fields.errors());
      String subAccountId = fields.text("subAccountId", true, 64);
      BigDecimal amount = fields.positiveAmount("amount", true, true);
      String code = fields.text("currency", false, 0);
      Currency currency = Currency.DEFAULT;
      if (code != null) {
        currency = Currency.of(code).orElse(null);
        if (currency == null) {
          fields.errors().add("currency", "currency must be one of " + Currency.codes());
        }
      }
      String referenceId = RequestIdentity.readReferenceId(fields);
      fields.errors().throwIfAny();
      return new Command(OrganisationId.of(subAccountId), amount, currency, referenceId, key,
          Caller.organisation(request));
    }
  }
}
