package dev.lipa.collections;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.testsupport.LostAnswerProxyInitializer;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ContextConfiguration;

/**
 * The one Spring context of this module's integration tests (same configuration everywhere, so it is shared): the
 * real service on a random port over the shared broker and store, the store reached through the
 * {@link dev.lipa.common.testsupport.LostAnswerProxy} (it relays everything unless a test arms it to lose an answer).
 * Tests use a fresh organisation each instead of cleaning the store.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    // long enough to see a push PENDING right after creating it, short enough for quick outcomes
    "lipa.collections.sandbox.outcome-delay=400ms",
    "lipa.collections.overdue.after=5s",
    "lipa.collections.overdue.sweep-interval=500ms",
    "lipa.collections.outbox.sweep-interval=1s",
    // an acknowledged event's removal rides along the next change within 1 s (the outcome comes after 400 ms), or is
    // written alone: a completed record's outbox is empty after 1 s instead of 5
    "lipa.collections.outbox.ack-delay=1s",
    "lipa.collections.outbox.grace-period=15s",
    // the shared secret of POST /internal/v1/stk-pushes (internal.InternalStkPushIntegrationTests)
    "lipa.internal.token=internal-test-token",
    "lipa.operator.token=" + CollectionsIntegrationTest.OPERATOR_TOKEN})
@ContextConfiguration(initializers = LostAnswerProxyInitializer.class)
public abstract class CollectionsIntegrationTest {

  protected static final String NEW = "/api/sandbox/v1/stk/new";
  protected static final String ALL = "/api/sandbox/v1/stk/all";
  protected static final String OPERATOR_TOKEN = "collections-tests-operator-token-0123456789";
  protected static final Map<String, String> OPERATOR = Map.of("X-Operator-Token", OPERATOR_TOKEN);

  @LocalServerPort
  protected int port;

  @Autowired
  protected MongoDatabase database;

  protected TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  protected static String newOrganisation() {
    return UUID.randomUUID().toString();
  }

  protected static Map<String, String> as(String organisationId) {
    return TestHttp.bearer(TestIssuer.shared().accessToken(organisationId));
  }

  protected static String body(String phoneNumber) {
    return """
        {"description":"Order 42","phoneNumber":"%s","amount":10,"accountReference":"INV42",
         "callbackUrl":"https://merchant.example/callbacks/stk"}""".formatted(phoneNumber);
  }

  /** Creates a push and returns its requestId. */
  protected String create(String organisationId, String body) {
    TestHttp.Response response = http().postJson(NEW, body, as(organisationId));
    if (response.status() != 201) {
      throw new AssertionError("expected 201, got " + response.status() + ": " + response.body());
    }
    return response.json().get("data").get("requestId").stringValue();
  }
}
