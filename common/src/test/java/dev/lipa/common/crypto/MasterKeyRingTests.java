package dev.lipa.common.crypto;

import static dev.lipa.common.crypto.SecretEnvelopeTests.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MasterKeyRingTests {

  private static final String K1 = key(1);
  private static final String K2 = key(2);

  @Nested
  class Parsing {

    @Test
    void takesTheFirstEntryAsThePrimary() {
      MasterKeyRing ring = MasterKeyRing.parse("k2:" + K2 + ",k1:" + K1);

      assertThat(ring.primaryId()).isEqualTo("k2");
      assertThat(ring.ids()).containsExactly("k2", "k1");
    }

    @Test
    void acceptsNewLinesSpacesAndCommentsBetweenEntries() {
      MasterKeyRing ring = MasterKeyRing.parse("# newest first\nk2:" + K2 + "\n\n  k1:" + K1 + " ,\n");

      assertThat(ring.ids()).containsExactly("k2", "k1");
    }

    @Test
    void refusesMalformedEntriesWithoutEchoingKeyMaterial() {
      String[] bad = {K1, ":" + K1, "k 1:" + K1, "k/1:" + K1, "k1:" + K1.substring(4), "k1:not base64!!",
          "k1:" + K1 + K1.substring(0, 4)};
      for (String text : bad) {
        assertThatThrownBy(() -> MasterKeyRing.parse(text)).as(text).isInstanceOf(IllegalArgumentException.class)
            .message().doesNotContain(K1).doesNotContain(K1.substring(4, 20));
      }
    }

    @Test
    void refusesOneIdNamingTwoKeys() {
      assertThatThrownBy(() -> MasterKeyRing.parse("k1:" + K1 + ",k1:" + K2))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'k1'");
      assertThat(MasterKeyRing.parse("k1:" + K1 + ",k1:" + K1).ids()).containsExactly("k1");
    }

    @Test
    void neverShowsKeysInItsText() {
      assertThat(MasterKeyRing.parse("k1:" + K1)).hasToString("MasterKeyRing[k1]");
    }
  }

  @Nested
  class FromTheSettings {

    @TempDir
    Path dir;

    Path keyFile(String text, String mode) throws IOException {
      Path file = dir.resolve("master-key");
      Files.writeString(file, text);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
      return file;
    }

    static SecretsProperties settings(String inline, Path file) {
      return new SecretsProperties(inline, file == null ? null : file.toString(), false, Duration.ofHours(1));
    }

    @Test
    void readsAFileOnlyItsOwnerCanRead() throws IOException {
      Path file = keyFile("k1:" + K1 + "\n", "rw-------");

      assertThat(MasterKeyRing.from(settings(null, file)).ids()).containsExactly("k1");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
      assertThat(MasterKeyRing.from(settings(null, file)).ids()).containsExactly("k1");
    }

    @Test
    void refusesAFileOthersCanReadOrWrite() throws IOException {
      for (String mode : new String[] {"rw-r-----", "rw----r--", "rw-r--r--", "rw--w----", "rw-----w-",
          "rw---x---"}) {
        Path file = keyFile("k1:" + K1, mode);
        assertThatThrownBy(() -> MasterKeyRing.from(settings(null, file))).as(mode)
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chmod 600");
      }
    }

    @Test
    void refusesAMissingFile() {
      assertThatThrownBy(() -> MasterKeyRing.from(settings(null, dir.resolve("absent"))))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a readable file");
    }

    @Test
    void putsTheInlineKeysBeforeTheFilesOnes() throws IOException {
      Path file = keyFile("k1:" + K1, "rw-------");

      MasterKeyRing ring = MasterKeyRing.from(settings("k2:" + K2, file));

      assertThat(ring.ids()).containsExactly("k2", "k1");
    }

    @Test
    void isEmptyWhenNothingIsConfigured() {
      assertThat(MasterKeyRing.from(settings(null, null)).isEmpty()).isTrue();
    }
  }
}
