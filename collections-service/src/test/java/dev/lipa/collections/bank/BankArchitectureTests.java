package dev.lipa.collections.bank;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Keeps the bank collections domain free of web and Kafka types; only its web adapter and its config see them. */
class BankArchitectureTests {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.lipa.collections");

  @Test
  void bankDomainDoesNotDependOnWebOrKafkaTypes() {
    noClasses().that().resideInAPackage("dev.lipa.collections.bank")
        .should().dependOnClassesThat().resideInAnyPackage(
            "org.springframework.web..", "org.springframework.http..", "jakarta.servlet..",
            "org.apache.kafka..", "org.springframework.kafka..", "dev.lipa.common.servlet..")
        .check(CLASSES);
  }

  @Test
  void theStkFeatureKnowsNothingOfBankCollections() {
    noClasses().that().resideInAPackage("dev.lipa.collections.stk..")
        .should().dependOnClassesThat().resideInAPackage("dev.lipa.collections.bank..")
        .check(CLASSES);
  }
}
