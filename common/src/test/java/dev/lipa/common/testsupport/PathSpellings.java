package dev.lipa.common.testsupport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Other spellings of a protected path, the ones a router may read as that path while a check on the raw text does
 * not: every one of them must be refused (400) before any credential is looked at. Used by the table-driven path
 * rule tests of the gateway and of every service.
 */
public final class PathSpellings {

  private PathSpellings() {
  }

  /**
   * Named spellings of {@code path} (e.g. {@code /admin/v1/organisations}): percent-encoded letters (either case of
   * hex), encoded slashes and dots, double encoding, {@code ;} parameters, {@code .} and {@code ..} segments,
   * {@code //}, backslashes, and a non-ASCII look-alike.
   */
  public static Map<String, String> of(String path) {
    String[] segments = path.substring(1).split("/");
    String first = segments[0];
    String rest = path.substring(1 + first.length()); // "/v1/organisations" or ""
    Map<String, String> spellings = new LinkedHashMap<>();
    spellings.put("first letter percent-encoded", "/" + encode(first.charAt(0), false) + first.substring(1) + rest);
    spellings.put("first letter percent-encoded, lower-case hex",
        "/" + encode(first.charAt(0), true) + first.substring(1) + rest);
    spellings.put("last letter percent-encoded", path.substring(0, path.length() - 1)
        + encode(path.charAt(path.length() - 1), false));
    spellings.put("every letter of the first segment encoded", "/" + encodeAll(first) + rest);
    spellings.put("double-encoded letter", "/%25" + hex(first.charAt(0), false) + first.substring(1) + rest);
    if (!rest.isEmpty()) {
      spellings.put("encoded slash", "/" + first + "%2F" + rest.substring(1));
      spellings.put("encoded slash, lower case", "/" + first + "%2f" + rest.substring(1));
      spellings.put("encoded backslash", "/" + first + "%5C" + rest.substring(1));
      spellings.put("path parameter after the first segment", "/" + first + ";x=1" + rest);
      spellings.put("empty path parameter", "/" + first + ";" + rest);
      spellings.put("double slash inside", "/" + first + "/" + rest);
      spellings.put("dot segment", "/" + first + "/." + rest);
      spellings.put("backslash instead of slash", "/" + first + "\\" + rest.substring(1));
    }
    spellings.put("path parameter at the end", path + ";jsessionid=1");
    spellings.put("matrix parameter on the first segment", "/" + first + ";a=b" + rest);
    spellings.put("dot-dot segment from elsewhere", "/x/.." + path);
    spellings.put("encoded dot-dot segment", "/x/%2e%2e" + path);
    spellings.put("encoded dot-dot, upper case", "/x/%2E%2E" + path);
    spellings.put("leading double slash", "/" + path);
    spellings.put("trailing dot segment", path + "/.");
    spellings.put("trailing dot-dot segment", path + "/x/..");
    spellings.put("leading backslash", "\\" + path.substring(1));
    spellings.put("percent-encoded UTF-8 look-alike letter", "/%EF%BD%81" + first.substring(1) + rest);
    return spellings;
  }

  /** The same paths, as a list of {@code [name, spelling]}. */
  public static List<String[]> list(String path) {
    List<String[]> list = new ArrayList<>();
    of(path).forEach((name, spelling) -> list.add(new String[] {name, spelling}));
    return list;
  }

  private static String encode(char c, boolean lowerCase) {
    return "%" + hex(c, lowerCase);
  }

  private static String hex(char c, boolean lowerCase) {
    String hex = String.format("%02X", (int) c);
    return lowerCase ? hex.toLowerCase(Locale.ROOT) : hex;
  }

  private static String encodeAll(String segment) {
    StringBuilder out = new StringBuilder();
    for (char c : segment.toCharArray()) {
      out.append(encode(c, false));
    }
    return out.toString();
  }
}
