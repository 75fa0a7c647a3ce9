package dev.lipa.checkout;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.lipa.common.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared rules ({@link ArchitectureRules}); the session domain is free of web and Kafka types. */
class ArchitectureTests {

  private static final String ROOT = "dev.lipa.checkout";
  private static final JavaClasses CLASSES = ArchitectureRules.productionClasses(ROOT);

  @Test
  void featuresDoNotReachIntoEachOthersInternals() {
    ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT).check(CLASSES);
  }

  @Test
  void domainIsFreeOfTheWebAndKafka() {
    ArchitectureRules.domainHasNoWebOrKafkaTypes("dev.lipa.checkout.session").check(CLASSES);
  }

  @Test
  void controllersDoNotImportStores() {
    ArchitectureRules.controllersDoNotImportStores(ROOT).check(CLASSES);
  }
}
