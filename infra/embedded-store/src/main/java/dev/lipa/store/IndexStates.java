package dev.lipa.store;

import java.util.BitSet;
import org.h2.mvstore.MVMap;

/**
 * What the store remembers of each {@link SortedIndex} beyond its keys: whether it has been built, which of its fields
 * have held an array (multikey: their keys no longer give a sort order), and whether it gave up holding a document
 * (unusable). On H2 it is one entry per index in the map {@value #MAP} of the file, keyed by the index's map name and
 * changed in the same command as the keys, so it is stored by the same commit; on the memory backend it lives in the
 * heap like everything else.
 */
final class IndexStates {

  static final String MAP = "lipa.indexes";

  private final MVMap<String, String> map;

  private IndexStates(MVMap<String, String> map) {
    this.map = map;
  }

  static IndexStates inFile(MVMap<String, String> map) {
    return new IndexStates(map);
  }

  static State inMemory() {
    return new State(null, null, "");
  }

  /** The state of the index whose keys live in the map {@code name}; empty when the map does not exist yet. */
  State of(String name, boolean mapExists) {
    String stored = map.get(name);
    if (stored != null && !mapExists) {
      map.remove(name); // the index's map was removed with its database: whatever was remembered is gone too
      stored = null;
    }
    return new State(map, name, stored == null ? "" : stored);
  }

  void forget(String name) {
    map.remove(name);
  }

  /** One index's state: "built", "unusable" and "multikey=<field numbers>" flags, separated by ';'. */
  static final class State {

    private final MVMap<String, String> map;
    private final String name;
    private boolean built;
    private boolean unusable;
    private final BitSet multikey = new BitSet();

    private State(MVMap<String, String> map, String name, String stored) {
      this.map = map;
      this.name = name;
      for (String flag : stored.split(";")) {
        if (flag.equals("built")) {
          built = true;
        } else if (flag.equals("unusable")) {
          unusable = true;
        } else if (flag.startsWith("multikey=")) {
          for (String field : flag.substring("multikey=".length()).split(",")) {
            multikey.set(Integer.parseInt(field));
          }
        }
      }
    }

    boolean isBuilt() {
      return built;
    }

    boolean unusable() {
      return unusable;
    }

    boolean multikey(int field) {
      return multikey.get(field);
    }

    void built() {
      built = true;
      save();
    }

    void markUnusable() {
      unusable = true;
      save();
    }

    void markMultikey(int field) {
      multikey.set(field);
      save();
    }

    /** The index was dropped: a new one of the same name starts again from nothing. */
    void dropped() {
      built = false;
      unusable = false;
      multikey.clear();
      if (map != null) {
        map.remove(name);
      }
    }

    private void save() {
      if (map == null) {
        return;
      }
      StringBuilder flags = new StringBuilder();
      if (built) {
        flags.append("built");
      }
      if (unusable) {
        flags.append(flags.isEmpty() ? "" : ";").append("unusable");
      }
      if (!multikey.isEmpty()) {
        flags.append(flags.isEmpty() ? "" : ";").append("multikey=");
        flags.append(String.join(",", multikey.stream().mapToObj(String::valueOf).toList()));
      }
      map.put(name, flags.toString());
    }
  }
}
