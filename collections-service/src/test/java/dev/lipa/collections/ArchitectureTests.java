package dev.lipa.collections;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.lipa.common.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The shared rules ({@link ArchitectureRules}); the STK and bank domains free of web and Kafka types, rails behind
 * their port, and STK knowing nothing of bank collections.
 */
class ArchitectureTests {

  private static final String ROOT = "dev.lipa.collections";
  private static final JavaClasses CLASSES = ArchitectureRules.productionClasses(ROOT);

  @Test
  void featuresDoNotReachIntoEachOthersInternals() {
    ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT).check(CLASSES);
  }

  @Test
  void domainIsFreeOfTheWebAndKafka() {
    ArchitectureRules.domainHasNoWebOrKafkaTypes("dev.lipa.collections.stk", "dev.lipa.collections.stk.rail",
        "dev.lipa.collections.bank").check(CLASSES);
  }

  @Test
  void controllersDoNotImportStores() {
    ArchitectureRules.controllersDoNotImportStores(ROOT).check(CLASSES);
  }

  @Test
  void theRailPortKnowsNothingOfTheStkFeatureOrOfItsAdapters() {
    noClasses().that().resideInAPackage("dev.lipa.collections.stk.rail")
        .should().dependOnClassesThat().resideInAnyPackage("dev.lipa.collections.stk",
            "dev.lipa.collections.stk.rail.sandbox", "dev.lipa.collections.stk.web")
        .check(CLASSES);
  }

  @Test
  void onlyTheWebAdaptersTalkHttp() {
    noClasses().that().resideOutsideOfPackages("dev.lipa.collections..web..")
        .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..", "jakarta.servlet..")
        .check(CLASSES);
  }

  @Test
  void theWebAdapterDoesNotReachTheRails() {
    noClasses().that().resideInAPackage("dev.lipa.collections.stk.web")
        .should().dependOnClassesThat().resideInAnyPackage("dev.lipa.collections.stk.rail..")
        .check(CLASSES);
  }

  @Test
  void theStkFeatureKnowsNothingOfBankCollections() {
    noClasses().that().resideInAPackage("dev.lipa.collections.stk..")
        .should().dependOnClassesThat().resideInAPackage("dev.lipa.collections.bank..")
        .check(CLASSES);
  }
}
