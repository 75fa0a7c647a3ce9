package dev.lipa.dispatcher;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ArchitectureTests {

  private final JavaClasses classes = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
      .importPackages("dev.lipa.dispatcher");

  @Test
  void deliveryKnowsNothingOfKafkaOrTheWebLayer() {
    noClasses().that().resideInAPackage("..dispatcher.delivery..")
        .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "org.springframework.kafka..",
            "org.springframework.web..", "jakarta.servlet..", "..dispatcher.intake..", "..dispatcher.web..")
        .check(classes);
  }

  @Test
  void intakeAndWebDoNotDependOnEachOther() {
    noClasses().that().resideInAPackage("..dispatcher.intake..")
        .should().dependOnClassesThat().resideInAPackage("..dispatcher.web..").check(classes);
    noClasses().that().resideInAPackage("..dispatcher.web..")
        .should().dependOnClassesThat().resideInAPackage("..dispatcher.intake..").check(classes);
  }
}
