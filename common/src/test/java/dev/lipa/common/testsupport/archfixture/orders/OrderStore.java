package dev.lipa.common.testsupport.archfixture.orders;

/** A store, which a controller must not use. */
public class OrderStore {

  /** The order with this id. */
  public Order find(String id) {
    return new Order(id);
  }
}
