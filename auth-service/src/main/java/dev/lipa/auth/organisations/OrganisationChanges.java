package dev.lipa.auth.organisations;

import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The operator's PATCH of an organisation's profile, checked field by field. Each field is a {@link Change}: absent
 * from the body means unchanged ({@code null} here), an explicit JSON {@code null} clears the value where the field
 * may be empty ({@code name} may not), anything else sets it. Fields that are not settable are refused by name, so a
 * typo or an attempt to move an organisation ({@code parentOrganisationId}) never passes silently.
 */
public record OrganisationChanges(
    Change<String> name,
    Change<String> phoneNumber,
    Change<String> email,
    Change<String> collectionCallbackUrl,
    Change<String> logoUrl,
    Change<String> displayName,
    Change<List<String>> bankAccountNumbers,
    Change<Integer> requestsPerSecond) {

  static final Set<String> SETTABLE = Set.of("name", "phoneNumber", "email", "collectionCallbackUrl", "logoUrl",
      "displayName", "bankAccountNumbers", "requestsPerSecond");
  /** The highest request limit the platform team may set: above any one gateway's capacity. */
  static final int MAX_REQUESTS_PER_SECOND = 100_000;
  static final int URL_MAX = 2048;
  static final int DISPLAY_NAME_MAX = 100;
  static final int MAX_ACCOUNTS = 50;
  /** Bank account numbers as banks quote them: digits only, 6 to 20 of them. */
  public static final Pattern ACCOUNT_NUMBER = Pattern.compile("[0-9]{6,20}");

  /** A field's new value; a {@code Change} holding null clears the field. */
  public record Change<T>(T value) {

    /** The value after the change: {@code current} when there is no change (the field was absent). */
    static <T> T applied(Change<T> change, T current) {
      return change == null ? current : change.value();
    }
  }

  /** Whether the body set no field at all. */
  public boolean isEmpty() {
    return name == null && phoneNumber == null && email == null && collectionCallbackUrl == null && logoUrl == null
        && displayName == null && bankAccountNumbers == null && requestsPerSecond == null;
  }

  /** Reads the PATCH body, naming every failing field at once ({@link ValidationException}). */
  public static OrganisationChanges from(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ValidationException.of("body", "must be a JSON object");
    }
    FieldErrors errors = new FieldErrors();
    for (String field : body.propertyNames()) {
      if (!SETTABLE.contains(field)) {
        errors.add(field, field + " cannot be changed here; settable fields are " + String.join(", ",
            SETTABLE.stream().sorted().toList()));
      }
    }
    Reader reader = new Reader(body, errors);
    Change<String> name = reader.text("name", NewOrganisation.NAME_MAX, false);
    Change<String> email = reader.text("email", NewOrganisation.EMAIL_MAX, true);
    if (email != null && email.value() != null && !NewOrganisation.EMAIL.matcher(email.value()).matches()) {
      errors.add("email", "email must be a valid email address");
    }
    Change<String> phone = reader.text("phoneNumber", 16, true);
    if (phone != null && phone.value() != null) {
      if (!NewOrganisation.PHONE.matcher(phone.value()).matches()) {
        errors.add("phoneNumber",
            "phoneNumber must be an international number: country code and digits, e.g. 254712345678");
      } else {
        phone = new Change<>(phone.value().replace("+", ""));
      }
    }
    Change<String> callbackUrl = reader.text("collectionCallbackUrl", URL_MAX, true);
    if (callbackUrl != null && callbackUrl.value() != null && !isAbsoluteUrl(callbackUrl.value(), false)) {
      errors.add("collectionCallbackUrl", "collectionCallbackUrl must be an absolute http or https URL");
    }
    Change<String> logoUrl = reader.text("logoUrl", URL_MAX, true);
    if (logoUrl != null && logoUrl.value() != null && !isAbsoluteUrl(logoUrl.value(), true)) {
      errors.add("logoUrl", "logoUrl must be an absolute https URL");
    }
    Change<String> displayName = reader.text("displayName", DISPLAY_NAME_MAX, true);
    Change<List<String>> accounts = reader.accountNumbers("bankAccountNumbers");
    Change<Integer> requestsPerSecond = reader.wholeNumber("requestsPerSecond", 1, MAX_REQUESTS_PER_SECOND);
    errors.throwIfAny();
    return new OrganisationChanges(name, phone, email, callbackUrl, logoUrl, displayName, accounts,
        requestsPerSecond);
  }

  private static boolean isAbsoluteUrl(String value, boolean httpsOnly) {
    try {
      URI uri = new URI(value);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      boolean schemeOk = httpsOnly ? scheme.equals("https") : scheme.equals("http") || scheme.equals("https");
      return schemeOk && uri.getHost() != null && !uri.getHost().isBlank() && uri.getUserInfo() == null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private record Reader(JsonNode body, FieldErrors errors) {

    /** Absent: null. JSON null: a clearing change, or an error when the field may not be empty. */
    Change<String> text(String field, int maxLength, boolean clearable) {
      if (!body.has(field)) {
        return null;
      }
      JsonNode node = body.get(field);
      if (node.isNull()) {
        if (!clearable) {
          errors.add(field, field + " cannot be cleared");
        }
        return new Change<>(null);
      }
      if (!node.isString()) {
        errors.add(field, field + " must be a string or null");
        return null;
      }
      String value = node.stringValue().strip();
      if (value.isEmpty()) {
        errors.add(field, clearable ? field + " must not be blank; send null to clear it" : field + " is required");
        return null;
      }
      if (value.length() > maxLength) {
        errors.add(field, field + " must be at most " + maxLength + " characters");
        return null;
      }
      return new Change<>(value);
    }

    /** A whole JSON number in [min, max]; JSON null clears the value. */
    Change<Integer> wholeNumber(String field, int min, int max) {
      if (!body.has(field)) {
        return null;
      }
      JsonNode node = body.get(field);
      if (node.isNull()) {
        return new Change<>(null);
      }
      // checked before any conversion: a huge or fractional number is refused, never rounded or expanded
      if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < min || node.intValue() > max) {
        errors.add(field, field + " must be a whole number from " + min + " to " + max + ", or null for the default");
        return null;
      }
      return new Change<>(node.intValue());
    }

    /** A list of distinct account numbers; JSON null clears the list. */
    Change<List<String>> accountNumbers(String field) {
      if (!body.has(field)) {
        return null;
      }
      JsonNode node = body.get(field);
      if (node.isNull()) {
        return new Change<>(List.of());
      }
      if (!node.isArray()) {
        errors.add(field, field + " must be an array of account numbers");
        return null;
      }
      if (node.size() > MAX_ACCOUNTS) {
        errors.add(field, field + " must hold at most " + MAX_ACCOUNTS + " account numbers");
        return null;
      }
      Set<String> accounts = new LinkedHashSet<>();
      List<String> problems = new ArrayList<>();
      for (JsonNode account : node) {
        if (!account.isString() || !ACCOUNT_NUMBER.matcher(account.stringValue()).matches()) {
          problems.add(field + " must hold account numbers of 6 to 20 digits, as strings");
        } else if (!accounts.add(account.stringValue())) {
          problems.add(field + " lists " + account.stringValue() + " twice");
        }
      }
      if (!problems.isEmpty()) {
        problems.stream().distinct().forEach(p -> errors.add(field, p));
        return null;
      }
      return new Change<>(List.copyOf(accounts));
    }
  }
}
