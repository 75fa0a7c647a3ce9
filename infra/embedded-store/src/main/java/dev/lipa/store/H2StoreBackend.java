package dev.lipa.store;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.ArrayFilters;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.NoopOplog;
import de.bwaldvogel.mongo.wire.message.MongoQuery;
import io.netty.channel.Channel;
import java.nio.file.Path;
import org.h2.mvstore.MVStore;

/**
 * The on-disk backend: mongo-java-server's H2 backend on databases of {@link H2StoreDatabase}, each command answered
 * through the {@link GroupCommit} once the disk holds what it did and saw, each change of a document appended to the
 * {@link WriteAheadLog} as it is made, and the log's records after the file's last checkpoint applied again when the file
 * opens.
 */
final class H2StoreBackend extends H2Backend implements H2StoreDatabase.Backend {

  /**
   * False while the backend's constructor opens the file's databases (fields of this class are not set yet then): an
   * index found unbuilt is built then, with commits as it goes, before any client can connect.
   */
  private final boolean opened;
  /** Null while the constructor opens the file's databases: nothing is counted then. */
  private final StoreStatus status;
  /** The write-ahead log; null until the records after the file's last checkpoint have been applied again. */
  private final WriteAheadLog wal;
  private final GroupCommit commits;

  H2StoreBackend(MVStore store, Path file, Durability durability, Housekeeping housekeeping, FatalState fatal) {
    super(store);
    opened = true;
    status = new StoreStatus();
    WriteAheadLog replayed = WriteAheadLog.open(file, Checkpoints.checkpointed(store), this::replay);
    this.wal = replayed;
    this.commits = new GroupCommit(store, replayed, durability, housekeeping, fatal);
  }

  /**
   * Every command (OP_MSG, and OP_QUERY on {@code $cmd}) is answered once the disk holds what it did and saw; a write
   * of more statements than the store advertises is refused first ({@link WriteBatches}).
   */
  @Override
  public Document handleCommand(Channel channel, String database, String command, Document query) {
    WriteBatches.check(command, query);
    return commits.run(command, () -> super.handleCommand(channel, database, command, query));
  }

  /** A legacy OP_QUERY on a collection, the same way. */
  @Override
  public QueryResult handleQuery(MongoQuery query) {
    return commits.run(null, () -> super.handleQuery(query));
  }

  /**
   * Applies a logged change again, through the collection (so its indexes follow): the document's new state replaces
   * the one the file holds (or is inserted), or the document is removed.
   */
  private void replay(LogRecords.Change change) {
    MongoDatabase database = resolveDatabase(change.database());
    MongoCollection<?> collection = database.resolveCollection(change.collection(), false);
    if (collection == null) {
      collection = database.createCollectionOrThrowIfExists(change.collection(), CollectionOptions.withDefaults());
    }
    Document selector = new Document("_id", change.id());
    if (change.document() == null) {
      collection.deleteDocuments(selector, 1, NoopOplog.get());
    } else {
      collection.updateDocuments(selector, change.document(), ArrayFilters.empty(), false, true, NoopOplog.get());
    }
  }

  @Override
  public boolean opened() {
    return opened;
  }

  /**
   * Logs a change of a document as it is made, before the file's map changes, so that no command can see a change that
   * is not in the log. The system collections (index and namespace descriptions) change with the file's structure,
   * which a checkpoint carries instead.
   */
  @Override
  public void logged(H2Collection collection, Object id, Document document) {
    if (collection.getCollectionName().startsWith("system.")) {
      GroupCommit.structureChanged();
    } else if (wal != null) {
      wal.append(collection.getDatabaseName(), collection.getCollectionName(), id, document);
    }
  }

  @Override
  public void examined() {
    StoreStatus counters = status;
    if (counters != null) {
      counters.examined();
    }
  }

  GroupCommit commits() {
    return commits;
  }

  @Override
  public void close() {
    commits.close();
    MVStore store = getMvStore();
    if (store.getPanicException() != null) {
      store.closeImmediately(); // H2's close commits first, and that commit spins for ever on a store that panicked
    }
    super.close();
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String name) {
    return H2StoreDatabase.open(name, getCursorRegistry(), this);
  }

  @Override
  public Document getServerStatus() {
    return status.addTo(super.getServerStatus());
  }
}
