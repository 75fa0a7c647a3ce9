package dev.lipa.common.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The platform's one rule for metric tags, applied to every meter of every service: no tag carries a raw path, an
 * organisation id, a requestId, a phone number or any other per-request value. Such values would make a series per
 * payment (the monitoring system's memory grows with every request) and copy customers' data into it.
 *
 * <p>A tag whose <b>name</b> says it holds such a value ({@code path}, {@code organisationId}, {@code requestId},
 * {@code phoneNumber}, ...) keeps its name and gets the value {@value #REDACTED}, so the meter keeps the same tag names
 * (Prometheus wants one set per metric name). Any other tag whose <b>value</b> holds a UUID (every platform id is one)
 * or a run of {@value #LONG_DIGITS} or more digits (a phone number, an account number) is redacted the same way: a raw
 * path such as {@code /api/v1/callbacks/<uuid>} in a {@code uri} tag never reaches the registry, whoever wrote the
 * instrumentation.
 */
public final class TagPolicy implements MeterFilter {

  /** What a forbidden tag value becomes. */
  public static final String REDACTED = "REDACTED";
  static final int LONG_DIGITS = 9;

  /** Tag names, lower case without separators, that name per-request or per-customer values. */
  private static final Set<String> FORBIDDEN_NAMES = Set.of("path", "rawpath", "url", "fullurl", "callbackurl", "query",
      "organisation", "organisationid", "organization", "organizationid", "org", "orgid", "tenant", "merchant",
      "companyid", "subaccountid", "requestid", "referenceid", "callbackid", "eventid", "checkoutref", "sessionid",
      "idempotencykey", "phone", "phonenumber", "msisdn", "customerphone", "accountnumber", "email", "user",
      "token", "apikey", "secret", "clientaddress", "clientip", "remoteaddress", "ip");
  /** Kafka's broker node ids (the group coordinator's is 2147483647 minus the broker's id): not a customer value. */
  private static final Set<String> DIGITS_ALLOWED = Set.of("nodeid");
  private static final Pattern UUID = Pattern.compile(
      "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}");
  private static final Pattern DIGITS = Pattern.compile("\\d{" + LONG_DIGITS + ",}");

  @Override
  public Meter.Id map(Meter.Id id) {
    List<Tag> tags = id.getTags();
    List<Tag> policed = null;
    for (int i = 0; i < tags.size(); i++) {
      Tag tag = tags.get(i);
      String value = policed(tag.getKey(), tag.getValue());
      if (!value.equals(tag.getValue())) {
        if (policed == null) {
          policed = new ArrayList<>(tags);
        }
        policed.set(i, Tag.of(tag.getKey(), value));
      }
    }
    return policed == null ? id : id.replaceTags(policed);
  }

  /** The value a tag of this name may carry: the value itself, or {@value #REDACTED}. */
  static String policed(String key, String value) {
    if (value == null || value.isEmpty() || value.equals(REDACTED)) {
      return value;
    }
    String name = key.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    if (FORBIDDEN_NAMES.contains(name) || UUID.matcher(value).find()) {
      return REDACTED;
    }
    if (!DIGITS_ALLOWED.contains(name) && DIGITS.matcher(value).find()) {
      return REDACTED;
    }
    return value;
  }
}
