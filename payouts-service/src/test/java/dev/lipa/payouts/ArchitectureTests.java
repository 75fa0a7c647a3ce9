package dev.lipa.payouts;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.lipa.common.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The shared rules ({@link ArchitectureRules}); domain code free of web and Kafka types; the ledger knows nothing
 * of payouts, transfers or top-ups.
 */
class ArchitectureTests {

  private static final String ROOT = "dev.lipa.payouts";
  private static final JavaClasses CLASSES = ArchitectureRules.productionClasses(ROOT);

  @Test
  void featuresDoNotReachIntoEachOthersInternals() {
    ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT).check(CLASSES);
  }

  @Test
  void aggregatesAndStoresUseNeitherTheWebNorKafka() {
    ArchitectureRules.domainHasNoWebOrKafkaTypes("dev.lipa.payouts.payout", "dev.lipa.payouts.sendmoney",
        "dev.lipa.payouts.business", "dev.lipa.payouts.deallocation", "dev.lipa.payouts.topup",
        "dev.lipa.payouts.requests", "dev.lipa.payouts.money").check(CLASSES);
  }

  @Test
  void controllersDoNotImportStores() {
    ArchitectureRules.controllersDoNotImportStores(ROOT).check(CLASSES);
  }

  @Test
  void theLedgerDoesNotDependOnPayoutsTransfersOrTopUps() {
    noClasses().that().resideInAPackage("dev.lipa.payouts.ledger..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.lipa.payouts.payout..",
            "dev.lipa.payouts.deallocation..", "dev.lipa.payouts.sendmoney..", "dev.lipa.payouts.business..",
            "dev.lipa.payouts.topup..")
        .check(CLASSES);
  }
}
