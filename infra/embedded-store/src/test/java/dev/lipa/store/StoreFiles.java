package dev.lipa.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Projections;
import de.bwaldvogel.mongo.MongoServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/** Reads what a store file holds, through a store of its own opened on it, the way a restarted store would. */
final class StoreFiles {

  private StoreFiles() {
  }

  /** The {@code _id}s of a collection in the file (which is opened, so any recovery H2 does happens to it). */
  static Set<Object> ids(Path file, String database, String collection) {
    MongoServer server = new MongoServer(StoreBackends.h2(file));
    InetSocketAddress address = server.bind();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      Set<Object> ids = new HashSet<>();
      client.getDatabase(database).getCollection(collection).find().projection(Projections.include("_id"))
          .forEach(document -> ids.add(document.get("_id")));
      return ids;
    } finally {
      server.shutdownNow();
    }
  }
}
