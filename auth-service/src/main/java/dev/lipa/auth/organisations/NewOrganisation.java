package dev.lipa.auth.organisations;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.JsonFields;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The operator's request to create an organisation, checked field by field.
 *
 * @param phoneNumber international digits without the leading {@code +} (e.g. {@code 254712345678})
 */
public record NewOrganisation(String name, String email, String phoneNumber, OrganisationId parentOrganisationId) {

  static final int NAME_MAX = 100;
  static final int EMAIL_MAX = 254;
  // E.164: a country code never starts with 0, and a full number has at most 15 digits
  static final Pattern PHONE = Pattern.compile("\\+?[1-9][0-9]{7,14}");
  // deliberately loose: one @, no spaces, a dot in the domain; the mailbox is the owner's business
  static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s.]+");

  /** Reads the body, naming every failing field at once ({@link dev.lipa.common.web.ValidationException}). */
  public static NewOrganisation from(JsonNode body) {
    JsonFields fields = JsonFields.of(body);
    String name = fields.text("name", true, NAME_MAX);
    String email = fields.text("email", false, EMAIL_MAX);
    if (email != null && !EMAIL.matcher(email).matches()) {
      fields.errors().add("email", "email must be a valid email address");
      email = null;
    }
    String phone = fields.text("phoneNumber", false, 16);
    if (phone != null && !PHONE.matcher(phone).matches()) {
      fields.errors().add("phoneNumber",
          "phoneNumber must be an international number: country code and digits, e.g. 254712345678");
      phone = null;
    }
    String parent = fields.text("parentOrganisationId", false, 36);
    if (parent != null && !isUuid(parent)) {
      fields.errors().add("parentOrganisationId", "parentOrganisationId must be an organisation id (a UUID)");
      parent = null;
    }
    fields.errors().throwIfAny();
    return new NewOrganisation(name, email, phone == null ? null : phone.replace("+", ""),
        parent == null ? null : OrganisationId.of(parent.toLowerCase()));
  }

  private static boolean isUuid(String value) {
    try {
      return value.length() == 36 && UUID.fromString(value) != null;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
