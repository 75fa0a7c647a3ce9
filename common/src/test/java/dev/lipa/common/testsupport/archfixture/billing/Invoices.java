package dev.lipa.common.testsupport.archfixture.billing;

import dev.lipa.common.testsupport.archfixture.orders.Orders;
import dev.lipa.common.testsupport.archfixture.orders.web.OrderView;

/** Uses the orders feature's face (allowed) and its web internals (the feature rule must report that). */
public class Invoices {

  /** Reaches into orders.web. */
  public OrderView view(Orders orders, String id) {
    return new OrderView(orders.find(id).id());
  }
}
