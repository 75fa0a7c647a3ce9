package dev.lipa.gateway.web;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Mono;

/**
 * Serves the API contracts (OpenAPI for the merchant API, AsyncAPI for the Kafka topics) that the build copies from
 * the repository's docs folder into {@code static/docs/}.
 */
@Configuration(proxyBeanMethods = false)
public class ContractDocuments {

  static final MediaType YAML = MediaType.parseMediaType("application/yaml");

  @Bean
  RouterFunction<ServerResponse> contractDocumentRoutes() {
    return RouterFunctions.route(RequestPredicates.GET("/docs/openapi.yaml"), ContractDocuments::serve)
        .andRoute(RequestPredicates.GET("/docs/asyncapi.yaml"), ContractDocuments::serve);
  }

  private static Mono<ServerResponse> serve(ServerRequest request) {
    String path = request.path();
    ClassPathResource document = new ClassPathResource("static" + path);
    if (!document.exists()) {
      return Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND));
    }
    return ServerResponse.ok().contentType(YAML).bodyValue(document);
  }
}
