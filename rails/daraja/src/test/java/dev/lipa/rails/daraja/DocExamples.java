package dev.lipa.rails.daraja;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Daraja's documented example bodies (docs/daraja/examples, with their sources in docs/daraja/README.md). */
public final class DocExamples {

  private DocExamples() {
  }

  /** The example's text, verbatim. */
  public static String read(String name) {
    try {
      return Files.readString(dir().resolve(name + ".json"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The repository's file at this path (docs/going-live.md, say). */
  public static Path repositoryFile(String relative) {
    return root().resolve(relative);
  }

  private static Path dir() {
    return root().resolve("docs/daraja/examples");
  }

  private static Path root() {
    Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("docs/daraja/examples"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("docs/daraja/examples not found above " + System.getProperty("user.dir"));
    }
    return p;
  }
}
