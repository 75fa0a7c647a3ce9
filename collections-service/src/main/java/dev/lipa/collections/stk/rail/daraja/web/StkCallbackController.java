package dev.lipa.collections.stk.rail.daraja.web;

import dev.lipa.collections.stk.rail.daraja.StkCallbacks;
import dev.lipa.common.ratelimit.ClientAddresses;
import dev.lipa.common.web.ApiException;
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
 * Daraja's STK CallBackURL of a live stack, {@code POST /daraja/v1/stk/{segment}/{requestId}}: no merchant token
 * (Daraja sends none); what protects it is the allow-list of Daraja's addresses, the shortcode's unguessable segment and
 * the checks of {@link StkCallbacks}. Answers Daraja's acknowledgement on success.
 */
@RestController
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class StkCallbackController {

  private final StkCallbacks callbacks;
  private final ClientAddresses addresses;

  StkCallbackController(StkCallbacks callbacks, ClientAddresses addresses) {
    this.callbacks = callbacks;
    this.addresses = addresses;
  }

  @PostMapping("/daraja/v1/stk/{segment}/{requestId}")
  Map<String, Object> receive(@PathVariable String segment, @PathVariable String requestId,
      @RequestBody(required = false) String body, HttpServletRequest request) {
    String source = addresses.client(request.getRemoteAddr(),
        Collections.list(request.getHeaders(ClientAddresses.X_FORWARDED_FOR)));
    return switch (callbacks.receive(segment, requestId, source, body)) {
      case ACCEPTED -> Map.of("ResultCode", 0, "ResultDesc", "Accepted");
      case FORBIDDEN -> throw new ApiException(HttpStatus.FORBIDDEN, "not an allowed source");
      case UNKNOWN -> throw ApiException.notFound("Not found");
      case REFUSED -> throw ApiException.badRequest("not a result of this push");
    };
  }
}
