package flashclaim;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.micronaut.http.annotation.ServerFilter;

/**
 * The layering of the service: the core (campaigns, claims, audit, results, locks, redemption) knows
 * nothing of the HTTP API, of the store adapters or of the HTTP, Firestore, gRPC and JDBC libraries;
 * the HTTP API reaches the store only through the core's ports; store adapters know nothing of
 * HTTP; auth learns where the data is through a port; no two packages depend on each other, however
 * indirectly, and neither do the parts of the HTTP layer, which share only its foundation ({@code
 * flashclaim.http}: the filter order, the route marks) and its problem answers. Production classes
 * only.
 */
@AnalyzeClasses(packages = "flashclaim", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule packagesAreFreeOfCycles =
      slices()
          .matching("flashclaim.(*)..")
          .should()
          .beFreeOfCycles()
          .because("each package is a feature or an adapter that can be read, and changed, on top of"
              + " the ones it uses");

  @ArchTest
  static final ArchRule coreIsIndependentOfAdaptersAndLibraries =
      noClasses()
          .that()
          .resideInAnyPackage(
              "flashclaim.campaign..",
              "flashclaim.claim..",
              "flashclaim.audit..",
              "flashclaim.results..",
              "flashclaim.lock..",
              "flashclaim.redemption..",
              "flashclaim.dashboard..",
              "flashclaim.status..",
              "flashclaim.appcheck..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "flashclaim.store..",
              "flashclaim.http..",
              "io.micronaut.http..",
              "com.google.cloud..",
              "io.grpc..",
              "java.sql..",
              "org.postgresql..",
              "com.zaxxer..",
              "org.flywaydb..",
              "io.micrometer..")
          .because("the core holds the rules and ports; adapters and libraries plug in from outside");

  @ArchTest
  static final ArchRule protectionsAreIndependentOfAdaptersAndLibraries =
      noClasses()
          .that()
          .resideInAnyPackage("flashclaim.guard..", "flashclaim.idempotency..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "flashclaim.store..",
              "flashclaim.http..",
              "com.google.cloud..",
              "io.grpc..",
              "io.micrometer..")
          .because("the guard and idempotency rules are written once, over ports; HTTP and stores plug in");

  @ArchTest
  static final ArchRule admissionIsIndependentOfHttpAndStores =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.admission..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "flashclaim.store..",
              "flashclaim.http..",
              "io.micronaut.http..",
              "reactor..",
              "io.micrometer..")
          .because("admission decides on arrival times and slots; the HTTP filter plugs it in");

  @ArchTest
  static final ArchRule httpDoesNotReachIntoStores =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.http..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("flashclaim.store..")
          .because("the HTTP API talks to the core's services and ports, never to a store adapter");

  @ArchTest
  static final ArchRule storeAdaptersDoNotKnowHttp =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.store..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("flashclaim.http..")
          .because("a store adapter serves the core's ports, whatever the API in front");

  @ArchTest
  static final ArchRule metricsObserveThroughTheCore =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.metrics..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("flashclaim.store..", "flashclaim.http..")
          .because("metrics observe the core's ports and counters; adapters bind their own meters");

  @ArchTest
  static final ArchRule httpPartsAreFreeOfCycles =
      slices()
          .matching("flashclaim.http.(*)..")
          .should()
          .beFreeOfCycles()
          .because("each part of the HTTP layer (the claim edge, problem answers, bodies, shedding,"
              + " each group of routes) reads on top of the ones it uses");

  @ArchTest
  static final ArchRule httpFoundationUsesNoHttpPart =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.http")
          .should()
          .dependOnClassesThat(
              resideInAPackage("flashclaim.http..").and(not(resideInAPackage("flashclaim.http"))))
          .because("the filter order, the route marks and the arrival stamp are what every part"
              + " shares; they know none of the parts");

  @ArchTest
  static final ArchRule problemAnswersUseOnlyTheFoundation =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.http.problem..")
          .should()
          .dependOnClassesThat(
              resideInAPackage("flashclaim.http..")
                  .and(not(resideInAPackage("flashclaim.http")))
                  .and(not(resideInAPackage("flashclaim.http.problem.."))))
          .because("every part answers with problems; problems know no part");

  @ArchTest
  static final ArchRule filtersDoNotCallEachOther =
      classes()
          .that()
          .areAnnotatedWith(ServerFilter.class)
          .should(useNoOtherFilter())
          .because("the order of the filters is FilterOrder's alone, and what they share is a plain"
              + " class (Arrival, the route marks), not another filter's members");

  /** A filter that refers to no other filter of the service. */
  private static ArchCondition<JavaClass> useNoOtherFilter() {
    return new ArchCondition<>("refer to no other filter") {
      @Override
      public void check(JavaClass filter, ConditionEvents events) {
        for (Dependency dependency : filter.getDirectDependenciesFromSelf()) {
          JavaClass target = dependency.getTargetClass();
          if (target.isAnnotatedWith(ServerFilter.class)
              && target.getPackageName().startsWith("flashclaim.")
              && !target.equals(filter)) {
            events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
          }
        }
      }
    };
  }

  @ArchTest
  static final ArchRule authKnowsNoStoreAdapter =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.auth..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("flashclaim.store..", "flashclaim.http..")
          .because("auth asks the StoreLocation port where the data is; adapters answer it");

  @ArchTest
  static final ArchRule theWarmUpCommandIsOnlyACommand =
      noClasses()
          .that()
          .resideOutsideOfPackage("flashclaim.store.firestore.warmup..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("flashclaim.store.firestore.warmup..")
          .because("the warm-up is an operator's command beside the service, not part of it");
}
