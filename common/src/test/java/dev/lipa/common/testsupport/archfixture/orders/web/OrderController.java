package dev.lipa.common.testsupport.archfixture.orders.web;

import dev.lipa.common.testsupport.archfixture.orders.OrderStore;

/** A controller that imports a store: the controller rule must report it. */
public class OrderController {

  private final OrderStore store = new OrderStore();

  /** The order as the web shows it. */
  public OrderView get(String id) {
    return new OrderView(store.find(id).id());
  }
}
