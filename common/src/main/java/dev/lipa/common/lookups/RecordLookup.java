package dev.lipa.common.lookups;

import dev.lipa.common.ids.RequestId;
import dev.lipa.common.web.FieldErrors;
import jakarta.servlet.http.HttpServletRequest;
import java.util.regex.Pattern;

/**
 * What a single-record lookup ({@code GET .../single?requestId=} or {@code ?referenceId=}) asks for: exactly one of the
 * two. The organisation is never part of it: every lookup is scoped by the verified token's organisation.
 */
public sealed interface RecordLookup {

  String REQUEST_ID = "requestId";
  String REFERENCE_ID = "referenceId";
  /** The longest referenceId any create endpoint accepts. */
  int REFERENCE_ID_MAX = 64;

  /** The canonical text form only (36 characters): a UUID reader would also take {@code 1-1-1-1-1}. */
  Pattern UUID_TEXT =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  /** By the requestId the create endpoint returned. */
  record ByRequestId(RequestId requestId) implements RecordLookup {
  }

  /** By the caller's own referenceId, as stored (stripped, like the create endpoints strip it). */
  record ByReference(String referenceId) implements RecordLookup {
  }

  /** What the lookup names, for a 404's message (the value as the caller sent it, stripped). */
  default String describe() {
    return switch (this) {
      case ByRequestId(RequestId id) -> "requestId " + id;
      case ByReference(String reference) -> "referenceId " + reference;
    };
  }

  /**
   * Reads the query string's {@code requestId} and {@code referenceId}: exactly one, given once, not blank; a
   * requestId in the UUID's canonical form, a referenceId of at most {@value #REFERENCE_ID_MAX} characters. Every
   * refusal is a 400 naming the parameter (a {@link dev.lipa.common.web.ValidationException}).
   */
  static RecordLookup read(HttpServletRequest request) {
    FieldErrors errors = new FieldErrors();
    String requestId = single(request, REQUEST_ID, errors);
    String referenceId = single(request, REFERENCE_ID, errors);
    errors.throwIfAny();
    if (requestId != null && referenceId != null) {
      errors.add(REQUEST_ID, "give either requestId or referenceId, not both");
      errors.add(REFERENCE_ID, "give either requestId or referenceId, not both");
    } else if (requestId == null && referenceId == null) {
      errors.add(REQUEST_ID, "requestId or referenceId is required");
    } else if (requestId != null && !UUID_TEXT.matcher(requestId).matches()) {
      errors.add(REQUEST_ID, "requestId must be a UUID");
    } else if (referenceId != null && referenceId.length() > REFERENCE_ID_MAX) {
      errors.add(REFERENCE_ID, "referenceId must be at most " + REFERENCE_ID_MAX + " characters");
    }
    errors.throwIfAny();
    return requestId != null ? new ByRequestId(RequestId.parse(requestId)) : new ByReference(referenceId);
  }

  /** The parameter's one value, stripped; null when absent or blank; an error when given more than once. */
  private static String single(HttpServletRequest request, String name, FieldErrors errors) {
    String[] values = request.getParameterValues(name);
    if (values == null || values.length == 0) {
      return null;
    }
    if (values.length > 1) {
      errors.add(name, name + " must be given once");
      return null;
    }
    String value = values[0].strip();
    return value.isEmpty() ? null : value;
  }
}
