package dev.lipa.collections.stk;

import com.google.i18n.phonenumbers.NumberParseException;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.PhoneNumberUtil.PhoneNumberFormat;
import com.google.i18n.phonenumbers.PhoneNumberUtil.PhoneNumberType;
import com.google.i18n.phonenumbers.Phonenumber.PhoneNumber;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A Kenyan mobile number in the form M-Pesa expects: {@code 2547XXXXXXXX} or {@code 2541XXXXXXXX}.
 *
 * @param value the normalised digits, without a plus sign
 */
public record KenyanMobileNumber(String value) {

  private static final PhoneNumberUtil PHONES = PhoneNumberUtil.getInstance();
  private static final String REGION = "KE";
  private static final int COUNTRY_CODE = 254;
  /** The forms merchants may send: 07…, 01…, 2547…, 2541…, +2547… and +2541…. */
  private static final Pattern ACCEPTED_FORMS = Pattern.compile("(?:0|\\+?254)[17]\\d{8}");
  private static final Pattern NORMALISED = Pattern.compile("254[17]\\d{8}");

  public KenyanMobileNumber {
    if (value == null || !NORMALISED.matcher(value).matches()) {
      throw new IllegalArgumentException("not a normalised Kenyan mobile number");
    }
  }

  /**
   * Reads a number in one of the accepted forms. The form check keeps out spellings we do not document (spaces,
   * 00254, 7XXXXXXXX); libphonenumber then decides that the number really is a Kenyan mobile one by the numbering
   * plan, so that, say, a Kenyan landline or an unassigned range is refused.
   */
  public static Optional<KenyanMobileNumber> parse(String text) {
    if (text == null || !ACCEPTED_FORMS.matcher(text).matches()) {
      return Optional.empty();
    }
    try {
      PhoneNumber number = PHONES.parse(text, REGION);
      if (number.getCountryCode() != COUNTRY_CODE || !PHONES.isValidNumberForRegion(number, REGION)) {
        return Optional.empty();
      }
      PhoneNumberType type = PHONES.getNumberType(number);
      if (type != PhoneNumberType.MOBILE && type != PhoneNumberType.FIXED_LINE_OR_MOBILE) {
        return Optional.empty();
      }
      String normalised = PHONES.format(number, PhoneNumberFormat.E164).substring(1);
      return NORMALISED.matcher(normalised).matches()
          ? Optional.of(new KenyanMobileNumber(normalised)) : Optional.empty();
    } catch (NumberParseException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
