package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.common.environment.Environment;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.kafka.listener.MessageListenerContainer;

/** What the live-mode tests of every service check the same way. */
public final class LiveStack {

  private LiveStack() {
  }

  /** A live key's bearer token for the organisation. */
  public static Map<String, String> live(String organisationId) {
    return TestHttp.bearer(TestIssuer.shared().accessToken(organisationId, Environment.LIVE));
  }

  /** A sandbox key's bearer token for the organisation. */
  public static Map<String, String> sandbox(String organisationId) {
    return TestHttp.bearer(TestIssuer.shared().accessToken(organisationId));
  }

  /** Asserts that no collection of the database holds anything of the organisation. */
  public static void assertNothingStoredFor(MongoDatabase database, String organisationId) {
    List<String> holding = new ArrayList<>();
    for (String name : database.listCollectionNames()) {
      if (database.getCollection(name).countDocuments(Filters.eq("organisationId", organisationId)) > 0) {
        holding.add(name);
      }
    }
    assertThat(holding).as("collections of %s holding organisation %s", database.getName(), organisationId)
        .isEmpty();
  }

  /**
   * Asserts that every listener reads live topics (the shared organisations topic aside) under a {@code -live}
   * consumer group.
   */
  public static void assertListenersAreLive(Collection<MessageListenerContainer> containers) {
    assertThat(containers).isNotEmpty();
    for (MessageListenerContainer container : containers) {
      String[] topics = container.getContainerProperties().getTopics();
      assertThat(topics).as(container.getListenerId()).isNotEmpty();
      for (String topic : topics) {
        assertThat(topic).as(container.getListenerId())
            .satisfiesAnyOf(t -> assertThat(t).startsWith("live.payments."),
                t -> assertThat(t).isEqualTo("payments.organisations.v1"));
      }
      assertThat(container.getGroupId()).as(container.getListenerId()).endsWith("-live");
    }
  }
}
