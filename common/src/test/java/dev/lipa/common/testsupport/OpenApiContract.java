package dev.lipa.common.testsupport;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import io.swagger.v3.parser.OpenAPIV3Parser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The HTTP contract as the tests see it: every answer a test's {@link TestHttp} gets is checked against
 * {@code docs/openapi.yaml} (operator calls, {@code /admin/**}, against {@code docs/operator-openapi.yaml}) with
 * Atlassian's swagger-request-validator: the status must be documented for the operation, and the content type and
 * the body must match what the document says. A mismatch fails the test that got the answer.
 *
 * <p>Only answers to a documented path and method are checked: an undocumented path (an internal endpoint, the
 * hosted checkout's pages, a test's own application, a deliberately misspelt path) has no contract to meet, and
 * neither has the platform's "no such route" answer ({@code 404 "Not found"}, e.g. a merchant path asked on a
 * service's operator listener). Requests
 * are not checked: tests send invalid requests on purpose.
 */
public final class OpenApiContract {

  /** The services whose operator API the gateway routes as {@code /admin/v1/dead-letters/<service>/...}. */
  private static final Set<String> SERVICES = Set.of("auth-service", "collections-service", "payouts-service",
      "checkout-service", "callback-dispatcher");
  private static final Pattern SERVICE_DEAD_LETTERS = Pattern.compile("^/admin/v1/dead-letters(/([^/]+))?(/.*)?$");
  /** Messages that say there is no operation to check the answer against, not that the answer is wrong. */
  private static final Set<String> NO_OPERATION = Set.of("validation.request.path.missing",
      "validation.request.operation.notAllowed");

  /** The one answer of a route that does not exist (gateway and services alike); records not found say what. */
  private static final String NO_ROUTE = "{\"status\":404,\"message\":\"Notfound\",\"data\":null}";

  private static volatile OpenApiContract shared;

  private final OpenApiInteractionValidator merchantApi;
  private final OpenApiInteractionValidator operatorApi;
  /** Every documented path template of both documents, as a case-sensitive pattern. */
  private final List<Pattern> documentedPaths;

  OpenApiContract(Path merchantDocument, Path operatorDocument) {
    this.merchantApi = validator(merchantDocument);
    this.operatorApi = validator(operatorDocument);
    this.documentedPaths = Stream.of(merchantDocument, operatorDocument)
        .flatMap(d -> new OpenAPIV3Parser().read(d.toUri().toString()).getPaths().keySet().stream())
        .map(OpenApiContract::templatePattern)
        .toList();
  }

  /** {@code /a/{id}/b} as {@code ^/a/[^/]+/b$}: the validator matches paths ignoring case, the platform does not. */
  static Pattern templatePattern(String template) {
    StringBuilder regex = new StringBuilder("^");
    for (String part : template.split("(?=\\{)|(?<=})")) {
      regex.append(part.startsWith("{") ? "[^/]+" : Pattern.quote(part));
    }
    return Pattern.compile(regex.append("$").toString());
  }

  /** The repository's two documents, read once per JVM. */
  public static OpenApiContract shared() {
    OpenApiContract contract = shared;
    if (contract == null) {
      synchronized (OpenApiContract.class) {
        if (shared == null) {
          Path docs = repositoryRoot().resolve("docs");
          shared = new OpenApiContract(docs.resolve("openapi.yaml"), docs.resolve("operator-openapi.yaml"));
        }
        contract = shared;
      }
    }
    return contract;
  }

  /** The problems of an answer to {@code method path}; empty when it meets the contract or has none to meet. */
  public List<String> problems(String method, String rawPath, int status, Map<String, List<String>> headers,
      String body) {
    String path = documentedTwin(serviceDeadLetterPath(rawPath));
    if (status == 404 && NO_ROUTE.equals(body == null ? null : body.replaceAll("\\s", ""))) {
      // the platform's "no such route" answer (the gateway's for an unknown path, a service's for a path it does not
      // serve on this listener): like an undocumented path, there is no operation to check it against
      return List.of();
    }
    if (!documented(path)) {
      // an undocumented path (the validator would match /API/... to /api/...: the platform answers 404 there)
      return List.of();
    }
    Request.Method verb;
    try {
      verb = Request.Method.valueOf(method.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return List.of();
    }
    SimpleResponse.Builder response = SimpleResponse.Builder.status(status);
    headers.forEach((name, values) -> {
      // HTTP/2 pseudo-headers and the like are not the contract's business
      if (!name.startsWith(":")) {
        response.withHeader(name, values);
      }
    });
    if (body != null && !body.isEmpty()) {
      response.withBody(body);
    }
    OpenApiInteractionValidator validator = path.startsWith("/admin/") ? operatorApi : merchantApi;
    ValidationReport report = validator.validateResponse(path, verb, response.build());
    if (report.getMessages().stream().anyMatch(m -> NO_OPERATION.contains(m.getKey()))) {
      return List.of();
    }
    return report.getMessages().stream()
        .filter(m -> m.getLevel() == ValidationReport.Level.ERROR)
        .map(OpenApiContract::describe)
        .collect(Collectors.toList());
  }

  private static String describe(ValidationReport.Message message) {
    StringBuilder text = new StringBuilder(message.getKey()).append(": ").append(message.getMessage());
    message.getContext().flatMap(c -> c.getPointers()).ifPresent(p -> text.append(" at ").append(p.getInstance()));
    // the schema validator's own messages say which field (e.g. under an allOf or a oneOf)
    for (String info : message.getAdditionalInfo()) {
      text.append("\n      ").append(info);
    }
    for (ValidationReport.Message nested : message.getNestedMessages()) {
      text.append("\n      ").append(describe(nested).replace("\n", "\n  "));
    }
    return text.toString();
  }

  /** Fails with every problem of the answer, naming the call. */
  public void check(String method, String rawPath, int status, Map<String, List<String>> headers, String body) {
    List<String> problems = problems(method, rawPath, status, headers, body);
    if (!problems.isEmpty()) {
      String document = rawPath.startsWith("/admin/") ? "docs/operator-openapi.yaml" : "docs/openapi.yaml";
      throw new AssertionError("The answer to " + method + " " + rawPath + " (" + status + ") breaks " + document
          + ":\n  " + String.join("\n  ", problems) + "\nbody: " + abbreviate(body));
    }
  }

  /**
   * A service serves its dead letters as {@code /admin/v1/dead-letters/...}; the gateway routes them as
   * {@code /admin/v1/dead-letters/<service>/...}, which is what the operator document describes. Every service's
   * answers have the same shape, so a service's own path is checked as if it were collections-service's.
   */
  /**
   * The documented path an answer to {@code path} is held to: itself when documented; otherwise a live path's sandbox
   * twin, which the documents say it mirrors ({@code /api/v1/stk/new} is held to {@code /api/sandbox/v1/stk/new}, the
   * live stack's operator API {@code /admin/live/v1/...} to {@code /admin/v1/...}), so the live stack's answers meet
   * the same contract.
   */
  String documentedTwin(String path) {
    if (documented(path)) {
      return path;
    }
    String twin = path;
    if (path.startsWith("/api/v1/")) {
      twin = "/api/sandbox/v1/" + path.substring("/api/v1/".length());
    } else if (path.startsWith("/admin/live/v1/")) {
      twin = "/admin/v1/" + path.substring("/admin/live/v1/".length());
    }
    return documented(twin) ? twin : path;
  }

  private boolean documented(String path) {
    return documentedPaths.stream().anyMatch(p -> p.matcher(path).matches());
  }

  static String serviceDeadLetterPath(String path) {
    Matcher m = SERVICE_DEAD_LETTERS.matcher(path);
    if (!m.matches() || (m.group(2) != null && SERVICES.contains(m.group(2)))) {
      return path;
    }
    return "/admin/v1/dead-letters/collections-service" + path.substring("/admin/v1/dead-letters".length());
  }

  private static OpenApiInteractionValidator validator(Path document) {
    if (!Files.isRegularFile(document)) {
      throw new IllegalStateException("no OpenAPI document at " + document);
    }
    return OpenApiInteractionValidator.createForSpecificationUrl(document.toUri().toString())
        // requests are the tests' own, often invalid on purpose: only answers are checked
        .withLevelResolver(LevelResolver.create()
            .withLevel("validation.request", ValidationReport.Level.IGNORE)
            .build())
        .build();
  }

  /** The repository's root: the nearest folder up from the working directory that has docs/openapi.yaml. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      if (Files.isRegularFile(dir.resolve("docs/openapi.yaml")) && Files.isRegularFile(dir.resolve("mvnw"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException("no repository root (docs/openapi.yaml) above " + Path.of("").toAbsolutePath());
  }

  private static String abbreviate(String body) {
    if (body == null) {
      return "(none)";
    }
    return body.length() <= 2000 ? body : body.substring(0, 2000) + "…";
  }
}
