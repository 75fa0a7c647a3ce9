package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The table-driven attack on a service's (or the gateway's) protected paths: every other spelling of each path
 * ({@link PathSpellings}), sent raw over a real socket, with and without valid credentials, must be refused with 400
 * by the path rules, so that no spelling reaches a handler whatever the credentials say.
 */
public final class PathRuleChecks {

  private PathRuleChecks() {
  }

  /** A protected path and the headers of a caller who may call it (to show the refusal is the path rule's). */
  public record Protected(String method, String path, Map<String, String> credentials) {
  }

  /** Sends every spelling of every path and asserts that each is a 400 before routing; lists every miss at once. */
  public static void assertEverySpellingRefused(String host, int port, List<Protected> paths) {
    List<String> misses = new ArrayList<>();
    for (Protected target : paths) {
      // no body: a server may refuse before reading one and close the connection, and a reset can swallow the
      // answer; the path decides the outcome here, not the body
      String body = null;
      for (Map.Entry<String, String> spelling : PathSpellings.of(target.path()).entrySet()) {
        for (Map<String, String> headers : List.of(Map.<String, String>of(), target.credentials())) {
          RawHttp.Answer answer = RawHttp.send(host, port, target.method(), spelling.getValue(), headers, body);
          boolean ours = answer.body().contains("Malformed request path");
          // a spelling the HTTP server itself refuses (it never reaches a filter) is as good, if it is a 400
          if (answer.status() != 400 || !(ours || refusedByTheServer(spelling.getValue()))) {
            misses.add(target.method() + " " + spelling.getValue() + " (" + spelling.getKey() + ", "
                + (headers.isEmpty() ? "no credentials" : "with credentials") + ") answered " + answer.status()
                + " " + abbreviate(answer.body()));
          }
        }
      }
    }
    assertThat(misses).as("spellings that were not refused by the path rules").isEmpty();
  }

  /** Characters an HTTP/1.1 server may refuse in a request target before any application code runs. */
  private static boolean refusedByTheServer(String target) {
    return target.indexOf('\\') >= 0;
  }

  private static String abbreviate(String body) {
    return body.length() > 160 ? body.substring(0, 160) + "…" : body;
  }
}
