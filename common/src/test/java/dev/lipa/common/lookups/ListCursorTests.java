package dev.lipa.common.lookups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ValidationException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ListCursorTests {

  private static final OrganisationId ORG = OrganisationId.of("0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10");
  private static final OrganisationId OTHER = OrganisationId.of("5d0c3c52-6a1e-4c0f-9d3e-2f4f1e6c9a11");
  private static final ListCursor CURSOR = new ListCursor("stk", ORG, Instant.parse("2026-03-01T09:30:00.123Z"), 42);

  private static void assertRefused(String text, String list, OrganisationId organisation) {
    assertThatThrownBy(() -> ListCursor.read(text, list, organisation))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.errors()).containsOnlyKeys(ListCursor.PARAMETER));
  }

  @Test
  void readsBackWhatItIssuedForItsListAndOrganisation() {
    assertThat(ListCursor.read(CURSOR.encode(), "stk", ORG)).isEqualTo(CURSOR);
  }

  @Test
  void isUrlSafeText() {
    assertThat(CURSOR.encode()).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
  }

  @Test
  void keepsMillisecondsAsTheStoreDoes() {
    ListCursor nanos = new ListCursor("stk", ORG, Instant.parse("2026-03-01T09:30:00.123456789Z"), 1);

    assertThat(nanos.createdAt()).isEqualTo(Instant.parse("2026-03-01T09:30:00.123Z"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   "})
  void readsBlankAsNone(String blank) {
    assertThat(ListCursor.read(blank, "stk", ORG)).isNull();
    assertThat(ListCursor.read(null, "stk", ORG)).isNull();
  }

  @Nested
  class Refuses {

    @Test
    void anotherOrganisationsCursor() {
      assertRefused(CURSOR.encode(), "stk", OTHER);
    }

    @Test
    void anotherListsCursor() {
      assertRefused(CURSOR.encode(), "payouts-TILL", ORG);
    }

    @Test
    void everyOneCharacterEdit() {
      String text = CURSOR.encode();
      for (int i = 0; i < text.length(); i++) {
        char replaced = text.charAt(i) == 'A' ? 'B' : 'A';
        String edited = text.substring(0, i) + replaced + text.substring(i + 1);
        if (!edited.equals(text)) {
          int index = i;
          assertThatThrownBy(() -> ListCursor.read(edited, "stk", ORG)).as("edit at %d", index)
              .isInstanceOf(ValidationException.class);
        }
      }
    }

    @Test
    void aPositionEditedByHandWithTheOldDigest() {
      String text = CURSOR.encode();
      String digest = text.substring(text.indexOf('.') + 1);
      String payload = new String(Base64.getUrlDecoder().decode(text.substring(0, text.indexOf('.'))),
          StandardCharsets.UTF_8);
      String edited = Base64.getUrlEncoder().withoutPadding()
          .encodeToString(payload.replace("\n42", "\n41").getBytes(StandardCharsets.UTF_8)) + "." + digest;

      assertRefused(edited, "stk", ORG);
    }

    @Test
    void aCursorCutShort() {
      String text = CURSOR.encode();

      assertRefused(text.substring(0, text.length() - 2), "stk", ORG);
      assertRefused(text.substring(0, text.indexOf('.')), "stk", ORG);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "a.b", "a.b.c", ".", "!!!.???", "0", "null", "%00", "eyJ9.eyJ9"})
    void garbage(String garbage) {
      assertRefused(garbage, "stk", ORG);
    }

    @Test
    void hugeTextBeforeDecodingIt() {
      assertRefused("A".repeat(100_000) + ".AAAA", "stk", ORG);
    }
  }
}
