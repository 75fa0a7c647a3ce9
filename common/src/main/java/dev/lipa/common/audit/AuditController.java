package dev.lipa.common.audit;

import com.mongodb.MongoException;
import dev.lipa.common.store.StoreUnavailable;
import dev.lipa.common.time.RecordTimes;
import dev.lipa.common.web.Envelope;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /admin/v1/audit}: this service's audit log of operator calls, newest first (behind the operator token,
 * like every {@code /admin/**}; the query is itself recorded). The gateway serves auth-service's at this path and each
 * other service's as {@code /admin/v1/audit/<service>}.
 */
@RestController
class AuditController {

  static final String PATH = "/admin/v1/audit";

  private final OperatorAuditStore store;
  private final ZoneId zone;

  AuditController(OperatorAuditStore store, @Value("${lipa.audit.zone:${LIPA_ZONE:Africa/Nairobi}}") ZoneId zone) {
    this.store = store;
    this.zone = zone;
  }

  @GetMapping(PATH)
  Envelope<List<AuditView>> list(@RequestParam(required = false) String from,
      @RequestParam(required = false) String to, @RequestParam(required = false) String page,
      @RequestParam(required = false) String size) {
    AuditQuery query = AuditQuery.of(from, to, page, size, zone);
    return Envelope.ok("Audit records fetched", store.list(query.from(), query.to(), query.page(), query.size())
        .stream().map(r -> AuditView.of(r, zone)).toList());
  }

  /** The service's store is down: the operator may try again; never a 500. */
  @ExceptionHandler(MongoException.class)
  ResponseEntity<Envelope<Void>> storeUnavailable(MongoException e) {
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .body(Envelope.error(HttpStatus.SERVICE_UNAVAILABLE, StoreUnavailable.MESSAGE));
  }

  /** A record as the query shows it; times in the platform zone, {@code status} null for a call that did not finish. */
  record AuditView(String id, String at, String operator, String method, String path, String query,
      Map<String, String> ids, Integer status, String completedAt, Long durationMillis, String address,
      String peerAddress, String correlationId, String service) {

    static AuditView of(AuditRecord r, ZoneId zone) {
      return new AuditView(r.id(), RecordTimes.format(r.at(), zone), r.operator(), r.method(), r.path(), r.query(),
          r.ids(), r.status(), RecordTimes.format(r.completedAt(), zone),
          r.completedAt() == null ? null : Duration.between(r.at(), r.completedAt()).toMillis(), r.address(),
          r.peerAddress(), r.correlationId(), r.service());
    }
  }
}
