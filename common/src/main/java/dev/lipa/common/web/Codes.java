package dev.lipa.common.web;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The constants of an enum by the code requests spell them with ({@code TZ-TIGO-C2B}, {@code KES}), and the list of
 * those codes a refusal names.
 */
public final class Codes {

  private Codes() {
  }

  /** The constant whose code is exactly {@code value} (case and spaces count); empty for null or no match. */
  public static <E extends Enum<E>> Optional<E> of(Class<E> type, Function<E, String> code, String value) {
    return Arrays.stream(type.getEnumConstants()).filter(c -> code.apply(c).equals(value)).findFirst();
  }

  /** Every constant's code in declaration order, joined with {@code separator} (e.g. {@code ", "} or {@code " or "}). */
  public static <E extends Enum<E>> String list(Class<E> type, Function<E, String> code, String separator) {
    return Arrays.stream(type.getEnumConstants()).map(code).collect(Collectors.joining(separator));
  }
}
