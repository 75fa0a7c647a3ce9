package dev.lipa.collections.stk.web;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.organisations.OrganisationProfiles;
import dev.lipa.collections.stk.StkPush;
import java.time.ZoneId;
import org.springframework.stereotype.Component;

/**
 * Renders STK pushes as the spec's collection record for every endpoint that shows one (the STK list, the TZ lookup):
 * the one place that knows how a record is built, organisation object included.
 */
@Component
public class StkPushViews {

  private final ZoneId zone;
  private final OrganisationProfiles organisations;

  StkPushViews(CollectionsProperties properties, OrganisationProfiles organisations) {
    this.zone = properties.zone();
    this.organisations = organisations;
  }

  /** The zone of the record times (and of the list's date filters). */
  public ZoneId zone() {
    return zone;
  }

  public StkPushView view(StkPush push) {
    return StkPushView.of(push, zone, organisations.recordShape(push.organisationId()));
  }
}
