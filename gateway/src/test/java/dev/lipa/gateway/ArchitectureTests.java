package dev.lipa.gateway;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.lipa.common.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The shared rules ({@link ArchitectureRules}). The gateway has no domain code: every package is an edge adapter on
 * WebFlux (even {@code RoutePolicy} reads the exchange). So the domain rule becomes: nothing in it uses Spring MVC,
 * the servlet API or Kafka.
 */
class ArchitectureTests {

  private static final String ROOT = "dev.lipa.gateway";
  private static final JavaClasses CLASSES = ArchitectureRules.productionClasses(ROOT);

  @Test
  void featuresDoNotReachIntoEachOthersInternals() {
    ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT).check(CLASSES);
  }

  @Test
  void nothingUsesTheServletStackOrKafka() {
    // common's servlet package is not listed: OperatorSettings, a plain settings record the gateway binds, lives
    // there; the servlet filters beside it are covered by jakarta.servlet
    noClasses().should().dependOnClassesThat().resideInAnyPackage("org.springframework.web.servlet..",
            "jakarta.servlet..", "org.apache.kafka..", "org.springframework.kafka..")
        .check(CLASSES);
  }

  @Test
  void controllersDoNotImportStores() {
    ArchitectureRules.controllersDoNotImportStores(ROOT).check(CLASSES);
  }
}
