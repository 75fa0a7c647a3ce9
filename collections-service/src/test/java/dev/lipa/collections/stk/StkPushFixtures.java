package dev.lipa.collections.stk;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import java.math.BigDecimal;
import java.time.Instant;

/** Pushes built through their real transitions. */
final class StkPushFixtures {

  static final OrganisationId ORGANISATION = OrganisationId.of("org-1");
  static final Instant ACCEPTED_AT = Instant.parse("2026-03-01T09:00:00.123Z");
  static final RailReference REFERENCE = new RailReference("29115-34620561-1", "ws_CO_010320261200001234", 0,
      "Success. Request accepted for processing", "Success. Request accepted for processing");

  private StkPushFixtures() {
  }

  static StkPushRequest aRequest() {
    return new StkPushRequest("Order 42", MobileNumber.parse("0712345678", MobileCountry.KENYA).orElseThrow(),
        new BigDecimal("10"), "INV42", "https://merchant.example/cb", StkCurrency.KSH, "ref-1");
  }

  static StkPush aPendingStkPush() {
    return StkPush.accept(7L, RequestId.random(), ORGANISATION, aRequest(), ACCEPTED_AT);
  }

  /** The same push as the store would give it back: no events recorded yet. */
  static StkPush restored(StkPush push) {
    return StkPush.restore(push.details(), push.status(), push.updatedAt(), push.railReference(), push.result());
  }
}
