package dev.lipa.dispatcher;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.lipa.common.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** The shared rules ({@link ArchitectureRules}); delivery knows nothing of its intake or its web API. */
class ArchitectureTests {

  private static final String ROOT = "dev.lipa.dispatcher";
  private static final JavaClasses CLASSES = ArchitectureRules.productionClasses(ROOT);

  @Test
  void featuresDoNotReachIntoEachOthersInternals() {
    ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT).check(CLASSES);
  }

  @Test
  void domainIsFreeOfTheWebAndKafka() {
    ArchitectureRules.domainHasNoWebOrKafkaTypes("..dispatcher.delivery..", "..dispatcher.signing..")
        .check(CLASSES);
  }

  @Test
  void controllersDoNotImportStores() {
    ArchitectureRules.controllersDoNotImportStores(ROOT).check(CLASSES);
  }

  @Test
  void deliveryKnowsNothingOfItsIntakeOrTheWebApi() {
    noClasses().that().resideInAPackage("..dispatcher.delivery..")
        .should().dependOnClassesThat().resideInAnyPackage("..dispatcher.intake..", "..dispatcher.web..")
        .check(CLASSES);
  }

  @Test
  void intakeAndWebDoNotDependOnEachOther() {
    noClasses().that().resideInAPackage("..dispatcher.intake..")
        .should().dependOnClassesThat().resideInAPackage("..dispatcher.web..").check(CLASSES);
    noClasses().that().resideInAPackage("..dispatcher.web..")
        .should().dependOnClassesThat().resideInAPackage("..dispatcher.intake..").check(CLASSES);
  }
}
