package dev.lipa.payouts.deallocation.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.common.json.JsonFields;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.payouts.deallocation.Transfer;
import dev.lipa.payouts.deallocation.Transfers;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.organisations.Organisations;
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
 * sub-account itself may ask). Body of both: {@code {subAccountId, amount, currency}} (currency KSH by default).
 */
@RestController
class DeallocationController {

  static final String BASE = "/api/sandbox/v1/de-allocations";
  private static final String NOT_FOUND = "sub-account not found";

  private final Transfers transfers;
  private final Organisations organisations;

  DeallocationController(Transfers transfers, Organisations organisations) {
    this.transfers = transfers;
    this.organisations = organisations;
  }

  @PostMapping(path = BASE + "/allocate", consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Envelope<Item>> allocate(@RequestBody JsonNode body, HttpServletRequest request) {
    Command command = Command.from(body);
    String caller = Caller.organisationId(request);
    if (!organisations.isSubAccountOf(command.subAccountId(), caller)) {
      throw ApiException.notFound(NOT_FOUND);
    }
    return answer(transfers.execute(Transfer.Type.ALLOCATION, caller, command.subAccountId(), caller,
        command.currency(), command.amount()), "allocation");
  }

  @PostMapping(path = BASE, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Envelope<Item>> deallocate(@RequestBody JsonNode body, HttpServletRequest request) {
    Command command = Command.from(body);
    String caller = Caller.organisationId(request);
    String parent = organisations.parentOf(command.subAccountId()).orElse(null);
    if (parent == null || !(caller.equals(parent) || caller.equals(command.subAccountId()))) {
      throw ApiException.notFound(NOT_FOUND);
    }
    return answer(transfers.execute(Transfer.Type.DEALLOCATION, parent, command.subAccountId(), caller,
        command.currency(), command.amount()), "de-allocation");
  }

  private static ResponseEntity<Envelope<Item>> answer(Transfer transfer, String what) {
    if (transfer.status() == Transfer.Status.FAILED) {
      return ResponseEntity.status(HttpStatus.UNPROCESSABLE_CONTENT).body(new Envelope<>(
          HttpStatus.UNPROCESSABLE_CONTENT.value(), "insufficient balance for the " + what, Item.of(transfer), null));
    }
    return ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created(what + " completed", Item.of(transfer)));
  }

  /** The caller's de-allocations (as a sub-account), newest first. */
  @GetMapping(path = BASE + "/org/all", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<Item>> mine(HttpServletRequest request) {
    return Envelope.ok("OK", transfers.deallocationsOf(Caller.organisationId(request)).stream().map(Item::of)
        .toList());
  }

  /** Every de-allocation of the parent's sub-accounts; only the parent itself may ask (404 for anyone else). */
  @GetMapping(path = BASE + "/org/all/admins", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<Item>> underParent(@RequestParam String parentOrganisationId, HttpServletRequest request) {
    if (!Caller.organisationId(request).equals(parentOrganisationId.strip())) {
      throw ApiException.notFound("organisation not found");
    }
    return Envelope.ok("OK", transfers.deallocationsUnder(parentOrganisationId.strip()).stream().map(Item::of)
        .toList());
  }

  /** The spec's de-allocation item. */
  @JsonPropertyOrder({"status", "requestId", "amount"})
  record Item(String status, String requestId, BigDecimal amount) {

    static Item of(Transfer transfer) {
      return new Item(transfer.status().name(), transfer.requestId().toString(), transfer.amount());
    }
  }

  record Command(String subAccountId, BigDecimal amount, Currency currency) {

    static Command from(JsonNode body) {
      JsonFields fields = JsonFields.of(body);
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
      fields.errors().throwIfAny();
      return new Command(subAccountId, amount, currency);
    }
  }
}
