package dev.lipa.payouts.payout.rail.daraja.web;

import dev.lipa.common.ratelimit.ClientAddresses;
import dev.lipa.common.web.ApiException;
import dev.lipa.payouts.payout.rail.daraja.PayoutResults;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Daraja's ResultURL and QueueTimeOutURL of a live stack, {@code POST /daraja/v1/results/{segment}} and
 * {@code POST /daraja/v1/timeouts/{segment}}: no merchant token (Daraja sends none); what protects them is the
 * allow-list of Daraja's addresses, the shortcode's unguessable segment and the checks of {@link PayoutResults}.
 */
@RestController
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class PayoutResultController {

  private final PayoutResults results;
  private final ClientAddresses addresses;

  PayoutResultController(PayoutResults results, ClientAddresses addresses) {
    this.results = results;
    this.addresses = addresses;
  }

  @PostMapping("/daraja/v1/results/{segment}")
  Map<String, Object> result(@PathVariable String segment, @RequestBody(required = false) String body,
      HttpServletRequest request) {
    return answer(results.result(segment, source(request), body));
  }

  @PostMapping("/daraja/v1/timeouts/{segment}")
  Map<String, Object> timeout(@PathVariable String segment, @RequestBody(required = false) String body,
      HttpServletRequest request) {
    return answer(results.timeout(segment, source(request), body));
  }

  private String source(HttpServletRequest request) {
    return addresses.client(request.getRemoteAddr(),
        Collections.list(request.getHeaders(ClientAddresses.X_FORWARDED_FOR)));
  }

  private static Map<String, Object> answer(PayoutResults.Verdict verdict) {
    return switch (verdict) {
      case ACCEPTED -> Map.of("ResultCode", 0, "ResultDesc", "Accepted");
      case FORBIDDEN -> throw new ApiException(HttpStatus.FORBIDDEN, "not an allowed source");
      case UNKNOWN -> throw ApiException.notFound("Not found");
      case REFUSED -> throw ApiException.badRequest("not a result of this payout");
    };
  }
}
