package dev.lipa.infra.bench;

/** Reads one string field of a small flat JSON text without parsing all of it (the hot paths of the bench). */
final class Json {

  private Json() {
  }

  /** The value of the first {@code "name":"value"} in the text, or null. Values with escapes are not expected here. */
  static String field(String json, String name) {
    String key = "\"" + name + "\"";
    int at = json.indexOf(key);
    while (at >= 0) {
      int colon = at + key.length();
      while (colon < json.length() && Character.isWhitespace(json.charAt(colon))) {
        colon++;
      }
      if (colon < json.length() && json.charAt(colon) == ':') {
        int quote = colon + 1;
        while (quote < json.length() && Character.isWhitespace(json.charAt(quote))) {
          quote++;
        }
        if (quote < json.length() && json.charAt(quote) == '"') {
          int end = json.indexOf('"', quote + 1);
          return end < 0 ? null : json.substring(quote + 1, end);
        }
        return null;
      }
      at = json.indexOf(key, at + 1);
    }
    return null;
  }
}
