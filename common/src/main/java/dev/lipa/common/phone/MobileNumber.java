package dev.lipa.common.phone;

import com.google.i18n.phonenumbers.NumberParseException;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.PhoneNumberUtil.PhoneNumberFormat;
import com.google.i18n.phonenumbers.PhoneNumberUtil.PhoneNumberType;
import com.google.i18n.phonenumbers.Phonenumber.PhoneNumber;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A mobile number of one of the {@link MobileCountry countries} in the form the rails expect: the country code and the
 * national number, digits only ({@code 254712345678}, {@code 255712345678}, {@code 256772123456}).
 *
 * @param value the normalised digits, without a plus sign
 * @param country the country the number belongs to
 */
public record MobileNumber(String value, MobileCountry country) {

  private static final PhoneNumberUtil PHONES = PhoneNumberUtil.getInstance();

  public MobileNumber {
    Objects.requireNonNull(country, "country");
    if (value == null || !country.isNormalised(value)) {
      throw new IllegalArgumentException("not a normalised " + country.adjective() + " mobile number");
    }
  }

  /**
   * Reads a number in one of the country's accepted forms (local forms are read as numbers of that country) and
   * checks with libphonenumber that it is a valid mobile number there, so that a landline or an unassigned range is
   * refused.
   */
  public static Optional<MobileNumber> parse(String text, MobileCountry country) {
    if (text == null || !country.isAcceptedForm(text)) {
      return Optional.empty();
    }
    try {
      PhoneNumber number = PHONES.parse(text, country.region());
      if (number.getCountryCode() != country.countryCode() || !PHONES.isValidNumberForRegion(number, country.region())) {
        return Optional.empty();
      }
      PhoneNumberType type = PHONES.getNumberType(number);
      if (type != PhoneNumberType.MOBILE && type != PhoneNumberType.FIXED_LINE_OR_MOBILE) {
        return Optional.empty();
      }
      String normalised = PHONES.format(number, PhoneNumberFormat.E164).substring(1);
      return country.isNormalised(normalised)
          ? Optional.of(new MobileNumber(normalised, country)) : Optional.empty();
    } catch (NumberParseException e) {
      return Optional.empty();
    }
  }

  /**
   * The country of a number written in an international form of another of our countries, if it is a valid mobile number
   * there: lets a refusal say that a {@code +255…} number was sent for a KSH push.
   */
  public static Optional<MobileCountry> otherCountryOf(String text, MobileCountry expected) {
    if (text == null || text.startsWith("0")) {
      return Optional.empty();
    }
    return Arrays.stream(MobileCountry.values()).filter(c -> c != expected)
        .filter(c -> parse(text, c).isPresent()).findFirst();
  }

  /** The number in any of our countries' accepted form (local forms are ambiguous: they are tried country by country). */
  public static Optional<MobileNumber> parseAny(String text) {
    return Arrays.stream(MobileCountry.values()).map(c -> parse(text, c)).flatMap(Optional::stream).findFirst();
  }

  /** The two digits after the country code, which name the network in Tanzania. */
  public String networkPrefix() {
    String code = Integer.toString(country.countryCode());
    return value.substring(code.length(), code.length() + 2);
  }

  @Override
  public String toString() {
    return value;
  }
}
