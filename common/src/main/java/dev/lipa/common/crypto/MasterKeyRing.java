package dev.lipa.common.crypto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The master keys a service may open sealed secrets with, each named by an id; the first one (the primary) seals and
 * re-wraps. Written as {@code id:base64-of-32-random-bytes} entries separated by commas or new lines, newest first
 * ({@code k2:...,k1:...}). Nothing here ever prints key material.
 */
public final class MasterKeyRing {

  /** Ids go into the stored form between colons: short, plain characters only. */
  static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final int KEY_BYTES = 32;
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private final Map<String, SecretKey> keys;

  private MasterKeyRing(Map<String, SecretKey> keys) {
    this.keys = Collections.unmodifiableMap(keys);
  }

  /** A ring without keys: nothing can be sealed or opened with it. */
  public static MasterKeyRing empty() {
    return new MasterKeyRing(new LinkedHashMap<>());
  }

  /**
   * The ring the settings describe: the inline entries first, then the file's.
   *
   * @throws IllegalArgumentException when an entry is malformed, an id repeats with another key, or the file cannot
   *     be read or is open to anyone but its owner
   */
  public static MasterKeyRing from(SecretsProperties properties) {
    List<Entry> entries = new ArrayList<>();
    if (properties.masterKeys() != null) {
      entries.addAll(parse(properties.masterKeys(), "lipa.secrets.master-keys"));
    }
    if (properties.masterKeyFile() != null) {
      Path file = Path.of(properties.masterKeyFile());
      entries.addAll(parse(readOwnerOnly(file), "lipa.secrets.master-key-file " + file));
    }
    return of(entries);
  }

  /** Parses entries ({@code id:base64}, separated by commas or white space), primary first. */
  public static MasterKeyRing parse(String text) {
    return of(parse(text, "the master key ring"));
  }

  private static MasterKeyRing of(List<Entry> entries) {
    Map<String, SecretKey> keys = new LinkedHashMap<>();
    for (Entry entry : entries) {
      SecretKey known = keys.putIfAbsent(entry.id(), entry.key());
      if (known != null && !MessageDigest.isEqual(known.getEncoded(), entry.key().getEncoded())) {
        throw new IllegalArgumentException("master key id '" + entry.id() + "' names two different keys");
      }
    }
    return new MasterKeyRing(keys);
  }

  private static List<Entry> parse(String text, String source) {
    List<Entry> entries = new ArrayList<>();
    // a # starts a comment that runs to the end of its line
    String withoutComments = text.replaceAll("#[^\\n]*", " ");
    for (String item : withoutComments.split("[,\\s]+")) {
      if (item.isEmpty()) {
        continue;
      }
      int colon = item.indexOf(':');
      if (colon < 0) {
        throw new IllegalArgumentException(source + ": every entry is id:base64-of-32-bytes; one has no id");
      }
      String id = item.substring(0, colon);
      if (!KEY_ID.matcher(id).matches()) {
        throw new IllegalArgumentException(source + ": a key id is 1-64 characters of A-Z a-z 0-9 _ . -");
      }
      byte[] key;
      try {
        key = Base64.getDecoder().decode(item.substring(colon + 1));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + ": key '" + id + "' is not base64");
      }
      if (key.length != KEY_BYTES) {
        throw new IllegalArgumentException(source + ": key '" + id + "' must be 32 bytes (base64 of 32 random bytes)");
      }
      entries.add(new Entry(id, new SecretKeySpec(key, "AES")));
    }
    return entries;
  }

  /**
   * The file's text, refused when anyone but its owner may read or write it: a master key other local users can read
   * protects nothing.
   */
  private static String readOwnerOnly(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("lipa.secrets.master-key-file " + file + " is not a readable file");
      }
      if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (!Collections.disjoint(permissions, OTHERS)) {
          throw new IllegalArgumentException("lipa.secrets.master-key-file " + file + " is open to other users ("
              + PosixFilePermissions.toString(permissions) + "): make it readable by its owner only (chmod 600)");
        }
      }
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read lipa.secrets.master-key-file " + file + ": " + e.getMessage());
    }
  }

  public boolean isEmpty() {
    return keys.isEmpty();
  }

  /** The id of the key that seals, or null when the ring is empty. */
  public String primaryId() {
    return keys.isEmpty() ? null : keys.keySet().iterator().next();
  }

  SecretKey primary() {
    return keys.isEmpty() ? null : keys.values().iterator().next();
  }

  /** The key with this id, or null. */
  SecretKey key(String id) {
    return keys.get(id);
  }

  /** The ids, primary first. */
  public List<String> ids() {
    return List.copyOf(keys.keySet());
  }

  @Override
  public String toString() {
    return "MasterKeyRing" + ids();
  }

  private record Entry(String id, SecretKey key) {
  }
}
