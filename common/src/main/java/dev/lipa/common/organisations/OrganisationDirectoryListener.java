package dev.lipa.common.organisations;

import dev.lipa.common.events.Topics;
import dev.lipa.common.kafka.RecordJson;
import dev.lipa.common.kafka.UnprocessableRecordException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Copies every profile published on {@value Topics#ORGANISATIONS} into this service's {@link OrganisationDirectory}.
 * Each service reads with its own consumer group ({@code <spring.application.name>-organisations} unless
 * {@code lipa.organisations.directory.group-id} says otherwise) from the earliest offset; the topic is compacted by
 * key (organisationId), so a new service catches up on the latest profile of every organisation. Applying is
 * idempotent by revision, so redelivery (and a dead letter's replay) needs no eventId bookkeeping. A record that is
 * not a readable profile is refused with {@link UnprocessableRecordException} (the consumer's dead letters); a store
 * failure propagates and is retried.
 */
public class OrganisationDirectoryListener {

  public static final String LISTENER_ID = "lipa-organisation-directory";
  private static final Logger log = LoggerFactory.getLogger(OrganisationDirectoryListener.class);

  private final OrganisationDirectory directory;
  private final JsonMapper json;

  public OrganisationDirectoryListener(OrganisationDirectory directory, JsonMapper json) {
    this.directory = directory;
    this.json = json;
  }

  @KafkaListener(id = LISTENER_ID, topics = Topics.ORGANISATIONS,
      groupId = "${lipa.organisations.directory.group-id:${spring.application.name}-organisations"
          + Topics.OfEnvironment.GROUP_SUFFIX + "}",
      autoStartup = "${lipa.organisations.directory.auto-startup:true}",
      properties = "auto.offset.reset=earliest")
  public void onOrganisationEvent(String value) {
    OrganisationProfile profile = read(value);
    if (profile == null) {
      return;
    }
    // store failures propagate: the platform's error handler retries the record, paused, until the store is back
    if (directory.apply(profile)) {
      log.debug("organisation {} now at revision {}", profile.organisationId(), profile.revision());
    }
  }

  /** The profile an event carries; null for a tombstone or another event type (not for this listener). */
  private OrganisationProfile read(String value) {
    if (value == null) {
      return null;
    }
    JsonNode event = RecordJson.parse(json, value);
    if (!OrganisationProfile.UPSERTED.equals(event.path("type").asString(""))) {
      return null;
    }
    try {
      return OrganisationProfile.fromEventData(event.path("data"));
    } catch (RuntimeException e) {
      // reading a profile is pure: what fails here fails on every retry, so the record goes to the dead letters
      throw new UnprocessableRecordException("not a valid organisation profile: " + e.getMessage(), e);
    }
  }
}
