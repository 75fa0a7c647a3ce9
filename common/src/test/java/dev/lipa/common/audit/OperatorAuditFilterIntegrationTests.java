package dev.lipa.common.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import dev.lipa.common.ratelimit.ClientAddresses;
import dev.lipa.common.security.OperatorTokens;
import dev.lipa.common.servlet.OperatorTokenFilter;
import dev.lipa.common.testsupport.SharedInfra;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/** The audit filter against the Mongo wire server of {@link SharedInfra}. */
class OperatorAuditFilterIntegrationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String SHARED_TOKEN = "shared-operator-token-0123456789abcdef";
  private static final String AMINA_TOKEN = "amina-operator-token-0123456789abcdef";
  private static final OperatorTokens TOKENS = OperatorTokens.of(SHARED_TOKEN, Map.of("amina", AMINA_TOKEN));
  private static final ClientAddresses ADDRESSES = new ClientAddresses(List.of("127.0.0.1/32"));
  private static MongoClient mongo;

  private MongoCollection<Document> collection;
  private OperatorAuditFilter audit;

  @BeforeAll
  static void connect() {
    mongo = MongoClients.create(SharedInfra.mongoUri());
  }

  @AfterAll
  static void disconnect() {
    mongo.close();
  }

  @BeforeEach
  void freshCollection() {
    collection = mongo.getDatabase("audit-tests").getCollection("audit-" + UUID.randomUUID());
    audit = filter(new OperatorAuditStore(collection));
  }

  @Test
  void writesTheRecordBeforeTheCallRunsAndCompletesItWithTheStatusAfter() throws Exception {
    MockHttpServletRequest request = adminRequest("DELETE", "/admin/v1/organisations/org-1/api-keys/lk_1",
        AMINA_TOKEN);
    request.setQueryString("reason=leak");
    List<Document> seenDuringTheCall = new ArrayList<>();
    FilterChain handler = (req, res) -> {
      seenDuringTheCall.addAll(collection.find().into(new ArrayList<>()));
      req.setAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE,
          Map.of("organisationId", "org-1", "apiKey", "lk_1"));
      ((HttpServletResponse) res).setStatus(200);
    };

    audit.doFilter(request, new MockHttpServletResponse(), handler);

    assertThat(seenDuringTheCall).singleElement().satisfies(pending -> {
      assertThat(pending.getString("operator")).isEqualTo("amina");
      assertThat(pending.containsKey("status")).isFalse();
    });
    Document done = collection.find().first();
    assertThat(done.getString("_id")).isEqualTo(seenDuringTheCall.getFirst().getString("_id"));
    assertThat(done.getString("operator")).isEqualTo("amina");
    assertThat(done.getString("method")).isEqualTo("DELETE");
    assertThat(done.getString("path")).isEqualTo("/admin/v1/organisations/org-1/api-keys/lk_1");
    assertThat(done.getString("query")).isEqualTo("reason=leak");
    assertThat(done.get("ids", Document.class)).containsExactlyInAnyOrderEntriesOf(
        Map.of("organisationId", "org-1", "apiKey", "lk_1"));
    assertThat(done.getInteger("status")).isEqualTo(200);
    assertThat(done.getDate("completedAt")).isAfterOrEqualTo(done.getDate("at"));
    assertThat(done.getString("service")).isEqualTo("test-service");
    assertThat(done.toJson()).doesNotContain(AMINA_TOKEN);
  }

  @Test
  void recordsARefusedCallAsUnauthenticated() throws Exception {
    MockHttpServletResponse response = new MockHttpServletResponse();
    MockHttpServletRequest request = adminRequest("POST", "/admin/v1/organisations", SHARED_TOKEN + "x");
    request.setRemoteAddr("198.51.100.4");

    new MockFilterChain(new HttpServlet() { }, audit,
        new OperatorTokenFilter(TOKENS, JSON, () -> -1)).doFilter(request, response);

    assertThat(response.getStatus()).isEqualTo(401);
    Document record = collection.find().first();
    assertThat(record.getString("operator")).isEqualTo(OperatorTokens.UNAUTHENTICATED);
    assertThat(record.getInteger("status")).isEqualTo(401);
    assertThat(record.getString("address")).isEqualTo("198.51.100.4");
    assertThat(record.toJson()).doesNotContain(SHARED_TOKEN);
  }

  @Test
  void namesTheClientBehindATrustedProxyAndOnlyThere() throws Exception {
    MockHttpServletRequest viaGateway = adminRequest("GET", "/admin/v1/audit", SHARED_TOKEN);
    viaGateway.setRemoteAddr("127.0.0.1");
    viaGateway.addHeader(ClientAddresses.X_FORWARDED_FOR, "10.9.9.9, 2001:db8::7");
    MockHttpServletRequest direct = adminRequest("GET", "/admin/v1/audit", SHARED_TOKEN);
    direct.setRemoteAddr("192.0.2.10");
    direct.addHeader(ClientAddresses.X_FORWARDED_FOR, "203.0.113.99");

    audit.doFilter(viaGateway, new MockHttpServletResponse(), ok());
    audit.doFilter(direct, new MockHttpServletResponse(), ok());

    List<AuditRecord> records = new OperatorAuditStore(collection).list(null, null, 0, 10);
    assertThat(records).extracting(AuditRecord::operator).containsOnly(OperatorTokens.DEFAULT_NAME);
    assertThat(records).extracting(AuditRecord::address, AuditRecord::peerAddress).containsExactlyInAnyOrder(
        tuple("2001:db8:0:0:0:0:0:7", "127.0.0.1"),
        tuple("192.0.2.10", "192.0.2.10"));
  }

  @Test
  void recordsOddSpellingsOfTheOperatorApiUnderTheRoutedPath() throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/%61dmin;x=1/v1/organisations");

    audit.doFilter(request, new MockHttpServletResponse(), (req, res) -> ((HttpServletResponse) res).setStatus(400));

    Document record = collection.find().first();
    assertThat(record.getString("path")).isEqualTo("/admin/v1/organisations");
    assertThat(record.getString("operator")).isEqualTo(OperatorTokens.UNAUTHENTICATED);
    assertThat(record.getInteger("status")).isEqualTo(400);
  }

  @Test
  void leavesEveryOtherPathAlone() throws Exception {
    audit.doFilter(new MockHttpServletRequest("GET", "/api/sandbox/v1/stk/all"), new MockHttpServletResponse(), ok());
    audit.doFilter(new MockHttpServletRequest("GET", "/administrators"), new MockHttpServletResponse(), ok());

    assertThat(collection.countDocuments()).isZero();
  }

  @Test
  void aCallThatFailsIsRecordedAs500() {
    MockHttpServletRequest request = adminRequest("POST", "/admin/v1/organisations", SHARED_TOKEN);

    assertThatThrownBy(() -> audit.doFilter(request, new MockHttpServletResponse(), (req, res) -> {
      throw new IllegalStateException("the handler broke");
    })).hasMessageContaining("the handler broke");

    assertThat(collection.find().first().getInteger("status")).isEqualTo(500);
  }

  @Test
  void doesNotRunACallItCannotRecord() throws Exception {
    MongoClient gone = MongoClients.create(SharedInfra.mongoUri());
    OperatorAuditFilter unrecorded = filter(new OperatorAuditStore(
        gone.getDatabase("audit-tests").getCollection("audit-" + UUID.randomUUID())));
    gone.close();
    MockHttpServletResponse response = new MockHttpServletResponse();
    List<String> ran = new ArrayList<>();

    unrecorded.doFilter(adminRequest("POST", "/admin/v1/organisations", SHARED_TOKEN), response,
        (req, res) -> ran.add("ran"));

    assertThat(ran).isEmpty();
    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(response.getContentAsString()).isEqualTo("{\"status\":503,\"message\":\""
        + OperatorAuditFilter.UNAVAILABLE + "\",\"data\":null}");
  }

  @Test
  void keepsAtMostSoMuchOfAQueryString() throws Exception {
    MockHttpServletRequest request = adminRequest("GET", "/admin/v1/audit", SHARED_TOKEN);
    request.setQueryString("from=" + "9".repeat(5000));

    audit.doFilter(request, new MockHttpServletResponse(), ok());

    assertThat(collection.find().first().getString("query")).hasSize(OperatorAuditFilter.MAX_QUERY + 1);
  }

  private static OperatorAuditFilter filter(OperatorAuditStore store) {
    return new OperatorAuditFilter(store, TOKENS, ADDRESSES, Clock.systemUTC(), "test-service", JSON);
  }

  private static FilterChain ok() {
    return (req, res) -> ((HttpServletResponse) res).setStatus(200);
  }

  private static MockHttpServletRequest adminRequest(String method, String path, String token) {
    MockHttpServletRequest request = new MockHttpServletRequest(method, path);
    request.addHeader(OperatorTokenFilter.HEADER, token);
    return request;
  }
}
