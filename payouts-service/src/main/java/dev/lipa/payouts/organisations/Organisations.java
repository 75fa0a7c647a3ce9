package dev.lipa.payouts.organisations;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.organisations.RecordOrganisation;
import java.util.Optional;

/** What payouts needs to know about organisations (a port; {@link DirectoryOrganisations} is the adapter). */
public interface Organisations {

  /** True when {@code companyId} is the caller's organisation or one of its sub-accounts. */
  boolean isSelfOrSubAccount(OrganisationId caller, OrganisationId companyId);

  /** True when {@code childId} is a sub-account of {@code parentId}. */
  boolean isSubAccountOf(OrganisationId childId, OrganisationId parentId);

  /** The parent of a sub-account; empty for a top-level or unknown organisation. */
  Optional<OrganisationId> parentOf(OrganisationId organisationId);

  /** The spec's organisation object of payout records (only {@code uuid} until the profile has arrived). */
  RecordOrganisation recordOrganisation(OrganisationId organisationId);
}
