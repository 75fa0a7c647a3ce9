package dev.lipa.payouts;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Domain code stays free of web and Kafka types; the ledger knows nothing of payouts, transfers or top-ups. */
class ArchitectureTests {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.lipa.payouts");

  @Test
  void theLedgerDoesNotDependOnPayoutsTransfersOrTopUps() {
    noClasses().that().resideInAPackage("dev.lipa.payouts.ledger..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.lipa.payouts.payout..",
            "dev.lipa.payouts.deallocation..", "dev.lipa.payouts.sendmoney..", "dev.lipa.payouts.business..",
            "dev.lipa.payouts.topup..")
        .check(CLASSES);
  }

  @Test
  void aggregatesAndStoresUseNeitherTheWebNorKafka() {
    noClasses().that().resideInAnyPackage("dev.lipa.payouts.payout", "dev.lipa.payouts.deallocation",
            "dev.lipa.payouts.topup", "dev.lipa.payouts.requests", "dev.lipa.payouts.money")
        .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..", "org.apache.kafka..",
            "jakarta.servlet..")
        .check(CLASSES);
  }
}
