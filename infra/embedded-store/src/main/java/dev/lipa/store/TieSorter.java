package dev.lipa.store;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Sorts runs of documents a {@link PlanReader} returns that tie on the fields the index orders by (the {@code given}
 * key positions after the pinned ones) by the whole requested order, one run at a time: for an index that gives only
 * the first part of the requested order.
 */
final class TieSorter implements Iterator<Document> {

  private final PlanReader<?> source;
  private final Comparator<Document> sort;
  private final SortedKeyType order;
  private final int from;
  private final int to;
  private final List<Document> run = new ArrayList<>();
  private Iterator<Document> sorted = List.<Document>of().iterator();
  private Document pending;
  private KeyValue pendingKey;

  TieSorter(PlanReader<?> source, Comparator<Document> sort, SortedKeyType order, int pinned, int given) {
    this.source = source;
    this.sort = sort;
    this.order = order;
    this.from = pinned;
    this.to = pinned + given;
  }

  @Override
  public boolean hasNext() {
    if (sorted.hasNext()) {
      return true;
    }
    run.clear();
    KeyValue runKey = null;
    if (pending != null) {
      run.add(pending);
      runKey = pendingKey;
      pending = null;
    }
    while (source.hasNext()) {
      Document document = source.next();
      KeyValue key = source.lastKey();
      if (runKey == null || ties(runKey, key)) {
        run.add(document);
        runKey = runKey == null ? key : runKey;
      } else {
        pending = document;
        pendingKey = key;
        break;
      }
    }
    run.sort(sort);
    sorted = new ArrayList<>(run).iterator();
    return sorted.hasNext();
  }

  private boolean ties(KeyValue a, KeyValue b) {
    for (int i = from; i < to; i++) {
      if (order.compareAt(i, a.get(i), b.get(i)) != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Document next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return sorted.next();
  }
}
