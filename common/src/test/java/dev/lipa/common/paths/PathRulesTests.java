package dev.lipa.common.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.PathSpellings;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathRulesTests {

  static final String[] PROTECTED = {"/admin/v1/organisations", "/internal/v1/stk-pushes",
      "/api/sandbox/v1/stk/new", "/api/sandbox/v1/checkout-sessions", "/api/v1/callbacks"};

  static Stream<Arguments> everySpellingOfEveryProtectedPath() {
    return Stream.of(PROTECTED).flatMap(path -> PathSpellings.list(path).stream()
        .map(s -> Arguments.of(Named.of(path + ": " + s[0], s[1]))));
  }

  @Nested
  class Oddities {

    @ParameterizedTest
    @MethodSource("dev.lipa.common.paths.PathRulesTests#everySpellingOfEveryProtectedPath")
    void refusesEveryOtherSpellingOfAProtectedPath(String spelling) {
      assertThat(PathRules.oddity(spelling)).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/admin/v1/organisations", "/api/sandbox/v1/stk/all", "/checkout/cs_abc-DEF_123",
        "/api/v1/banks/sandbox-bank/notifications", "/.well-known/jwks.json", "/", "/admin/v1/organisations/",
        "/admin/v1/organisations/5d0c/api-keys/lk_sbx_Ab.c~d", "/actuator/health"})
    void acceptsThePlatformsOwnPaths(String path) {
      assertThat(PathRules.oddity(path)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "admin", "/ad min", "/ad\tmin", "/ad\u0000min", "/adm\u00efn", "/a\"b", "/a<b>",
        "/a`b", "/a{b}", "/a|b", "/a^b", "/a[b]", "/a#b", "/a?b"})
    void refusesCharactersNoPathOfOursHas(String path) {
      assertThat(PathRules.oddity(path)).isPresent();
    }

    @Test
    void namesTheRuleItApplies() {
      assertThat(PathRules.oddity("/%61dmin")).contains("percent-encoded characters are not accepted in the path");
      assertThat(PathRules.oddity("/admin;x=1/v1")).contains("path parameters (;) are not accepted");
      assertThat(PathRules.oddity("/admin\\v1")).contains("backslashes are not accepted in the path");
      assertThat(PathRules.oddity("/admin//v1")).contains("empty path segments (//) are not accepted");
      assertThat(PathRules.oddity("/x/../admin")).contains("'.' and '..' path segments are not accepted");
    }
  }

  @Nested
  class Routed {

    @Test
    void readsTheSpellingsARouterDecodesAsThePathTheyImitate() {
      // what Spring MVC and the gateway's predicates would route as the protected path is read as that path here,
      // so a filter deciding on this form applies the protected path's rule even to a spelling that got through
      Set<String> decodedAlike = Set.of("first letter percent-encoded", "first letter percent-encoded, lower-case hex",
          "last letter percent-encoded", "every letter of the first segment encoded", "encoded slash",
          "encoded slash, lower case", "path parameter after the first segment", "empty path parameter",
          "double slash inside", "dot segment", "path parameter at the end", "matrix parameter on the first segment",
          "dot-dot segment from elsewhere", "encoded dot-dot segment", "encoded dot-dot, upper case",
          "leading double slash", "trailing dot segment", "trailing dot-dot segment");
      for (String path : PROTECTED) {
        PathSpellings.of(path).forEach((name, spelling) -> {
          if (decodedAlike.contains(name)) {
            assertThat(PathRules.routed(spelling)).as(name + ": " + spelling).isEqualTo(path);
          }
        });
      }
    }

    @Test
    void decodesRemovesParametersAndAppliesDotSegments() {
      assertThat(PathRules.routed("/%61dmin/v1/organisations")).isEqualTo("/admin/v1/organisations");
      assertThat(PathRules.routed("/admin;x=1/v1/organisations")).isEqualTo("/admin/v1/organisations");
      assertThat(PathRules.routed("/x/../admin/./v1//organisations")).isEqualTo("/admin/v1/organisations");
      assertThat(PathRules.routed("/admin%2Fv1")).isEqualTo("/admin/v1");
      assertThat(PathRules.routed("/x/%2e%2e/admin")).isEqualTo("/admin");
      assertThat(PathRules.routed("/%E2%82%AC")).isEqualTo("/\u20ac");
      assertThat(PathRules.routed("/%zz/%4")).isEqualTo("/%zz/%4");
      assertThat(PathRules.routed("/../../admin")).isEqualTo("/admin");
      assertThat(PathRules.routed("")).isEqualTo("/");
    }

    @Test
    void isUnderMatchesThePrefixAndWhatLiesBelowItOnly() {
      assertThat(PathRules.isUnder("/admin", "/admin")).isTrue();
      assertThat(PathRules.isUnder("/admin/v1", "/admin")).isTrue();
      assertThat(PathRules.isUnder("/administrators", "/admin")).isFalse();
      assertThat(PathRules.isUnder("/api/admin", "/admin")).isFalse();
    }
  }
}
