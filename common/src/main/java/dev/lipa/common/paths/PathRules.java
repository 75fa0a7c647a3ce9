package dev.lipa.common.paths;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The platform's rules for request paths, shared by the gateway and every service so that all of them read a path
 * the same way: access decisions are made on the path that is routed, never on a spelling of it.
 *
 * <p>No endpoint of the platform needs anything but plain characters in its path, so every other spelling is refused
 * before routing: a percent-encoded character of any kind (an encoded letter {@code %61dmin}, an encoded slash
 * {@code %2F}, an encoded dot {@code %2e%2e}, a double encoding {@code %2561}), a {@code ;} path parameter, a
 * backslash, an empty segment ({@code //}), a {@code .} or {@code ..} segment, and any character outside the
 * unreserved and sub-delimiter set of RFC 3986 (spaces, controls, non-ASCII). What passes these rules decodes to
 * itself, so the raw path, the decoded path and the routed path are one and the same. The rules apply to the path
 * only: a query string decodes as usual.
 */
public final class PathRules {

  private PathRules() {
  }

  /**
   * Why a raw request path (as sent on the request line, without the query) is refused, or empty when it is
   * acceptable. The reason is safe to show the caller.
   */
  public static Optional<String> oddity(String rawPath) {
    if (rawPath == null || rawPath.isEmpty() || rawPath.charAt(0) != '/') {
      return Optional.of("the path must start with /");
    }
    for (int i = 0; i < rawPath.length(); i++) {
      char c = rawPath.charAt(i);
      if (c == '%') {
        return Optional.of("percent-encoded characters are not accepted in the path");
      }
      if (c == ';') {
        return Optional.of("path parameters (;) are not accepted");
      }
      if (c == '\\') {
        return Optional.of("backslashes are not accepted in the path");
      }
      if (!allowed(c)) {
        return Optional.of("the path may contain only letters, digits and - . _ ~ ! $ & ' ( ) * + , = : @ /");
      }
    }
    int start = 1;
    while (start <= rawPath.length()) {
      int end = rawPath.indexOf('/', start);
      if (end < 0) {
        end = rawPath.length();
      }
      String segment = rawPath.substring(start, end);
      boolean last = end == rawPath.length();
      if (segment.isEmpty() && !last) {
        return Optional.of("empty path segments (//) are not accepted");
      }
      if (segment.equals(".") || segment.equals("..")) {
        return Optional.of("'.' and '..' path segments are not accepted");
      }
      start = end + 1;
    }
    return Optional.empty();
  }

  /**
   * The path as a router reads it: {@code ;} parameters removed from every segment, percent-encoding decoded
   * (UTF-8), empty and {@code .} segments dropped and {@code ..} segments applied. For a path that passes
   * {@link #oddity} this is the path itself; every access decision is made on this form, so a rule still holds where
   * a refusal of odd spellings were ever missing.
   */
  public static String routed(String rawPath) {
    if (rawPath == null || rawPath.isEmpty()) {
      return "/";
    }
    Deque<String> segments = new ArrayDeque<>();
    for (String raw : rawPath.split("/", -1)) {
      int parameters = raw.indexOf(';');
      String segment = decode(parameters >= 0 ? raw.substring(0, parameters) : raw);
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        segments.pollLast();
        continue;
      }
      segments.addLast(segment);
    }
    return "/" + String.join("/", segments);
  }

  /** Whether {@code path} (a {@link #routed} path) is {@code prefix} itself or lies below it. */
  public static boolean isUnder(String path, String prefix) {
    return path.equals(prefix) || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
  }

  private static boolean allowed(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      return true;
    }
    return "-._~!$&'()*+,=:@/".indexOf(c) >= 0;
  }

  /** Percent-decoding in UTF-8; a malformed escape is kept as it is (it never matches a protected prefix). */
  private static String decode(String segment) {
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
    int plainFrom = 0;
    for (int i = 0; i < segment.length(); i++) {
      if (segment.charAt(i) == '%' && i + 2 < segment.length()
          && Character.digit(segment.charAt(i + 1), 16) >= 0 && Character.digit(segment.charAt(i + 2), 16) >= 0) {
        bytes.writeBytes(segment.substring(plainFrom, i).getBytes(StandardCharsets.UTF_8));
        bytes.write(Character.digit(segment.charAt(i + 1), 16) * 16 + Character.digit(segment.charAt(i + 2), 16));
        i += 2;
        plainFrom = i + 1;
      }
    }
    bytes.writeBytes(segment.substring(plainFrom).getBytes(StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
