package dev.lipa.common.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects every field error of a request so that one response can name all failing fields. */
public final class FieldErrors {

  private final Map<String, List<String>> errors = new LinkedHashMap<>();

  public FieldErrors add(String field, String message) {
    errors.computeIfAbsent(field, f -> new ArrayList<>()).add(message);
    return this;
  }

  public boolean has(String field) {
    return errors.containsKey(field);
  }

  public boolean isEmpty() {
    return errors.isEmpty();
  }

  public Map<String, List<String>> asMap() {
    return Collections.unmodifiableMap(errors);
  }

  /** Throws a {@link ValidationException} naming every field collected so far, if there is any. */
  public void throwIfAny() {
    if (!errors.isEmpty()) {
      throw new ValidationException(this);
    }
  }
}
