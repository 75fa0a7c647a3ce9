package dev.lipa.common.phone;

import java.util.regex.Pattern;

/**
 * The countries our mobile-money rails reach (STK pushes and payouts alike), with the phone number forms merchants may
 * send for each. The form check keeps out
 * spellings we do not document (spaces, 00-prefixes, numbers without the leading 0); libphonenumber then decides that
 * a number really is a mobile number of the country by its numbering plan.
 */
public enum MobileCountry {

  KENYA("KE", 254, "Kenyan", "(?:0|\\+?254)[17]\\d{8}", "254[17]\\d{8}",
      "07XXXXXXXX, 01XXXXXXXX, 2547XXXXXXXX, 2541XXXXXXXX, +2547XXXXXXXX or +2541XXXXXXXX"),
  TANZANIA("TZ", 255, "Tanzanian", "(?:0|\\+?255)[67]\\d{8}", "255[67]\\d{8}",
      "06XXXXXXXX, 07XXXXXXXX, 255XXXXXXXXX or +255XXXXXXXXX"),
  UGANDA("UG", 256, "Ugandan", "(?:0|\\+?256)7\\d{8}", "2567\\d{8}",
      "07XXXXXXXX, 2567XXXXXXXX or +2567XXXXXXXX");

  private final String region;
  private final int countryCode;
  private final String adjective;
  private final Pattern acceptedForms;
  private final Pattern normalised;
  private final String forms;

  MobileCountry(String region, int countryCode, String adjective, String acceptedForms, String normalised,
      String forms) {
    this.region = region;
    this.countryCode = countryCode;
    this.adjective = adjective;
    this.acceptedForms = Pattern.compile(acceptedForms);
    this.normalised = Pattern.compile(normalised);
    this.forms = forms;
  }

  /** The ISO 3166 region code libphonenumber knows the country by. */
  public String region() {
    return region;
  }

  public int countryCode() {
    return countryCode;
  }

  /** "Kenyan", "Tanzanian", "Ugandan". */
  public String adjective() {
    return adjective;
  }

  /** The forms a merchant may send, for error messages. */
  public String forms() {
    return forms;
  }

  boolean isAcceptedForm(String text) {
    return acceptedForms.matcher(text).matches();
  }

  boolean isNormalised(String digits) {
    return normalised.matcher(digits).matches();
  }
}
