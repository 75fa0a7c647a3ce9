package dev.lipa.common.json;

import tools.jackson.core.StreamReadConstraints;

/**
 * The bounds every JSON document the platform reads is held to, request bodies and Kafka events alike, checked by
 * Jackson while it reads (before any value is built). They are the platform's own sizes with room to spare: bodies are
 * at most 64 KiB at the gateway and events are ours.
 */
public final class JsonLimits {

  /** A whole document: 1 MiB (Kafka's default record size); request bodies are held to 64 KiB before this. */
  public static final long MAX_DOCUMENT_LENGTH = 1024 * 1024;
  /** Characters of one number as written; the longest amount the platform accepts is 18 characters. */
  public static final int MAX_NUMBER_LENGTH = 64;
  /** Characters of one string value: no field of the platform comes near a whole request body. */
  public static final int MAX_STRING_LENGTH = 64 * 1024;
  /** Characters of one property name: ours are at most 30. */
  public static final int MAX_NAME_LENGTH = 256;
  /** Nested objects and arrays: the deepest document of the platform (an event carrying a callback body) has 5. */
  public static final int MAX_NESTING_DEPTH = 32;

  private static final StreamReadConstraints CONSTRAINTS = StreamReadConstraints.builder()
      .maxDocumentLength(MAX_DOCUMENT_LENGTH)
      .maxNumberLength(MAX_NUMBER_LENGTH)
      .maxStringLength(MAX_STRING_LENGTH)
      .maxNameLength(MAX_NAME_LENGTH)
      .maxNestingDepth(MAX_NESTING_DEPTH)
      .build();

  private JsonLimits() {
  }

  /** Jackson's read constraints with the limits above (the token count is left to the document length). */
  public static StreamReadConstraints readConstraints() {
    return CONSTRAINTS;
  }
}
