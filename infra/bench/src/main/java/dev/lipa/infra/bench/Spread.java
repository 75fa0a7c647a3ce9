package dev.lipa.infra.bench;

import java.util.Collection;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * The median of a figure over repeated runs, with its spread (lowest and highest). A run that could not measure the
 * figure (NaN: no payment accepted, no callback seen) is left out and counted as missing; {@link #count} says how
 * many runs measured it.
 */
record Spread(double median, double min, double max, int count, int missing) {

  /** The spread of the values; NaN figures when none is a number. */
  static Spread of(Collection<Double> values) {
    double[] numbers = values.stream().mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v)).sorted()
        .toArray();
    int missing = values.size() - numbers.length;
    if (numbers.length == 0) {
      return new Spread(Double.NaN, Double.NaN, Double.NaN, 0, missing);
    }
    return new Spread(median(numbers), numbers[0], numbers[numbers.length - 1], numbers.length, missing);
  }

  /** The middle value of sorted numbers, or the mean of the middle two (halved first: no overflow to infinity). */
  static double median(double[] sorted) {
    int n = sorted.length;
    if (n == 0) {
      return Double.NaN;
    }
    if (n % 2 == 1) {
      return sorted[n / 2];
    }
    return sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2;
  }

  /** {@code median (min–max)} in the given number format, the median alone when every run gave the same. */
  String format(DoubleFunction<String> number) {
    if (count == 0) {
      return "-";
    }
    String text = min == max ? number.apply(median)
        : number.apply(median) + " (" + number.apply(min) + "–" + number.apply(max) + ")";
    return missing == 0 ? text : text + " [" + missing + " n/a]";
  }

  /** Whole numbers below 10,000 as they are, larger ones with a thousands separator; 1 decimal below 10. */
  static String number(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
    }
    return Math.abs(value) < 10 ? String.format(Locale.ROOT, "%.1f", value)
        : String.format(Locale.ROOT, "%,.0f", value);
  }

  /** A whole count, with a thousands separator. */
  static String count(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
  }

  /** Two decimals: CPU milliseconds, work per payment, ratios. */
  static String decimals(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
  }
}
