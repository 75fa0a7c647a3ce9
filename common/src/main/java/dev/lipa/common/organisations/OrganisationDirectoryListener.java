package dev.lipa.common.organisations;

import dev.lipa.common.events.Topics;
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
 * idempotent by revision, so redelivery needs no eventId bookkeeping.
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
      groupId = "${lipa.organisations.directory.group-id:${spring.application.name}-organisations}",
      autoStartup = "${lipa.organisations.directory.auto-startup:true}",
      properties = "auto.offset.reset=earliest")
  public void onOrganisationEvent(String value) {
    OrganisationProfile profile;
    try {
      JsonNode event = json.readTree(value);
      if (!OrganisationProfile.UPSERTED.equals(event.path("type").asString(""))) {
        return;
      }
      profile = OrganisationProfile.fromEventData(event.path("data"));
    } catch (RuntimeException e) {
      // an unreadable record must not block the partition; the organisation's next change repairs the copy
      log.warn("unreadable record on {} skipped: {}", Topics.ORGANISATIONS, e.toString());
      return;
    }
    // store failures propagate: the container retries the record rather than lose the profile
    if (directory.apply(profile)) {
      log.debug("organisation {} now at revision {}", profile.organisationId(), profile.revision());
    }
  }
}
