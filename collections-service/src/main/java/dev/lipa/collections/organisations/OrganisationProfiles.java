package dev.lipa.collections.organisations;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.organisations.BankRecordOrganisation;
import dev.lipa.common.organisations.OrganisationDirectory;
import dev.lipa.common.organisations.OrganisationProfile;
import dev.lipa.common.organisations.RecordOrganisation;
import java.time.ZoneId;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * This service's view of the organisation profiles it copies from auth-service ({@code payments.organisations.v1},
 * through common's {@link OrganisationDirectory}, switched on by {@code lipa.organisations.directory.enabled}): the
 * spec's organisation objects for records, and the organisation a bank account belongs to.
 */
@Component
public class OrganisationProfiles {

  private final OrganisationDirectory directory;
  private final ZoneId zone;

  public OrganisationProfiles(OrganisationDirectory directory, CollectionsProperties properties) {
    this.directory = directory;
    this.zone = properties.zone();
  }

  /** The STK (and payout) records' organisation object; only {@code uuid} while the profile has not arrived. */
  public RecordOrganisation recordShape(OrganisationId organisationId) {
    return RecordOrganisation.of(organisationId, directory.byId(organisationId), zone);
  }

  /** The bank collection records' organisation object; only {@code uuid} while the profile has not arrived. */
  public BankRecordOrganisation bankShape(OrganisationId organisationId) {
    return BankRecordOrganisation.of(organisationId, directory.byId(organisationId));
  }

  public Optional<OrganisationProfile> byId(OrganisationId organisationId) {
    return directory.byId(organisationId);
  }

  /** The organisation credited for a bank account number. */
  public Optional<OrganisationProfile> byBankAccount(String accountNumber) {
    return directory.byBankAccount(accountNumber);
  }
}
