package dev.lipa.collections.stk.web;

import dev.lipa.collections.stk.StkCurrency;
import dev.lipa.collections.stk.StkPushes;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.FieldErrors;
import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Endpoint 17 of the spec: the caller's Tanzanian (TZS) STK collection by the requestId its creation returned. The
 * spec does not show the body; ours is the 200 envelope with the STK collection record as {@code data} (the same
 * record {@code GET /api/sandbox/v1/stk/all} lists). None, another organisation's or a KSH/UGX push: 404.
 */
@RestController
class TzCollectionController {

  static final String DEVICE_ID = "Device-Id";
  private static final Pattern UUID_TEXT =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private final StkPushes pushes;
  private final StkPushViews views;

  TzCollectionController(StkPushes pushes, StkPushViews views) {
    this.pushes = pushes;
    this.views = views;
  }

  /**
   * {@code Device-Id} is required here as at the gateway: a service does not trust the network to have checked it.
   * Missing parameters and headers reach the envelope advice as 400s naming them.
   */
  @GetMapping(path = "/api/v1/tz/collections/single", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<StkPushView> single(@RequestParam(required = false) String requestId,
      @RequestHeader(name = DEVICE_ID, required = false) String deviceId, HttpServletRequest request) {
    // read by hand so that one answer names both when both are missing
    FieldErrors errors = new FieldErrors();
    if (deviceId == null || deviceId.isBlank()) {
      errors.add(DEVICE_ID, DEVICE_ID + " header is required");
    }
    RequestId id = null;
    if (requestId == null || requestId.isBlank()) {
      errors.add("requestId", "requestId is required");
    } else if (!UUID_TEXT.matcher(requestId.strip()).matches()) {
      errors.add("requestId", "requestId must be a UUID");
    } else {
      id = RequestId.parse(requestId);
    }
    errors.throwIfAny();
    return pushes.find(Caller.organisation(request), id)
        .filter(push -> push.details().currency() == StkCurrency.TZS)
        .map(push -> Envelope.ok("OK", views.view(push)))
        .orElseThrow(() -> ApiException.notFound("No TZS collection with requestId " + requestId.strip()));
  }
}
