package dev.lipa.common.testsupport.archfixture.orders;

import org.springframework.http.HttpStatus;

/** Domain code that uses a web type: the domain rule must report it. */
public record Order(String id) {

  /** The web type the rule must find. */
  public HttpStatus status() {
    return HttpStatus.OK;
  }
}
