package dev.lipa.checkout.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.checkout.CheckoutIntegrationTest;
import dev.lipa.checkout.CollectionsStub;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * The hosted page in Debian's headless Chromium (never a downloaded browser) against the real service: card success,
 * decline and retry, the authentication step, M-Pesa with the stubbed collections-service and a Kafka outcome,
 * cancel, an expired session, and a phone-width screenshot.
 */
class CheckoutPageBrowserIntegrationTests extends CheckoutIntegrationTest {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Path SCREENSHOT = Path.of("target", "checkout-page-phone.png");

  private static WebDriver driver;
  private static Path profile;

  @BeforeAll
  static void startBrowser() throws IOException {
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
      throw new IllegalStateException("The browser tests need Debian's chromium and chromium-driver ("
          + CHROMIUM + ", " + CHROMEDRIVER + "): apt-get install -y chromium chromium-driver (.ci/run does)");
    }
    profile = Files.createTempDirectory("checkout-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--user-data-dir=" + profile, "--window-size=1100,900");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
  }

  @AfterAll
  static void stopBrowser() {
    if (driver != null) {
      driver.quit();
    }
  }

  private String shop() {
    return CollectionsStub.shared().baseUrl() + "/shop";
  }

  /** A session whose redirect URLs point at the local stub shop; returns its page URL on this service. */
  private String openSession(String currency, String amount, String methods) {
    String body = body(currency, amount, methods)
        .replace("https://shop.example/ok", shop() + "/success")
        .replace("https://shop.example/cancel", shop() + "/cancel");
    JsonNode created = create(newOrganisation(), body);
    String url = "http://127.0.0.1:" + port + "/checkout/" + created.path("checkoutRef").asString();
    driver.get(url);
    return url;
  }

  private WebDriverWait waitUpTo(int seconds) {
    return new WebDriverWait(driver, Duration.ofSeconds(seconds));
  }

  private WebElement visible(String id) {
    return waitUpTo(10).until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
  }

  private void payByCard(String number) {
    visible("card-number").clear();
    driver.findElement(By.id("card-number")).sendKeys(number);
    driver.findElement(By.id("card-expiry")).clear();
    driver.findElement(By.id("card-expiry")).sendKeys("12/39");
    driver.findElement(By.id("card-cvc")).clear();
    driver.findElement(By.id("card-cvc")).sendKeys("123");
    driver.findElement(By.id("card-pay")).click();
  }

  private String sessionIdOf(String pageUrl) {
    String ref = pageUrl.substring(pageUrl.lastIndexOf('/') + 1);
    return database.getCollection(dev.lipa.checkout.session.CheckoutSessionStore.COLLECTION)
        .find(com.mongodb.client.model.Filters.eq("checkoutRef", ref)).first().getString("_id");
  }

  @Nested
  class Card {

    @Test
    void theSucceedingCardRedirectsToSuccessUrl() {
      openSession("KES", "1500", "[\"CARD\",\"MPESA_STK\"]");
      assertThat(driver.findElement(By.id("amount")).getText()).isEqualTo("1,500.00");
      assertThat(driver.findElement(By.id("description")).getText()).isEqualTo("Order 42: two mugs");
      payByCard("4242 4242 4242 4242");
      visible("paid");
      waitUpTo(10).until(ExpectedConditions.urlToBe(shop() + "/success"));
    }

    @Test
    void aDeclinedCardShowsAnErrorAndAllowsARetry() {
      openSession("USD", "19.99", "[\"CARD\"]");
      payByCard("4000000000000002");
      waitUpTo(10).until(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "declined"));
      assertThat(driver.findElement(By.id("card-form")).isDisplayed()).isTrue();
      payByCard("4242424242424242");
      waitUpTo(10).until(ExpectedConditions.urlToBe(shop() + "/success"));
    }

    @Test
    void theAuthenticationCardShowsTheAuthenticationStep() {
      openSession("KES", "250", "[\"CARD\"]");
      payByCard("4000002500003155");
      visible("authentication");
      driver.findElement(By.id("auth-approve")).click();
      waitUpTo(10).until(ExpectedConditions.urlToBe(shop() + "/success"));
    }

    @Test
    void invalidCardFieldsAreShownBesideTheFields() {
      openSession("KES", "250", "[\"CARD\"]");
      visible("card-number").sendKeys("1234");
      driver.findElement(By.id("card-pay")).click();
      waitUpTo(10).until(ExpectedConditions.textToBePresentInElementLocated(
          By.cssSelector(".field-error[data-field='cardNumber']"), "valid card number"));
    }
  }

  @Nested
  class Mpesa {

    @Test
    void thePromptWaitsOnThePhoneThenTheOutcomeRedirectsToSuccessUrl() {
      String url = openSession("KES", "1500", "[\"MPESA_STK\",\"CARD\"]");
      WebElement phone = visible("mpesa-phone");
      assertThat(phone.getAttribute("value")).isEqualTo("+254712345678");
      driver.findElement(By.id("mpesa-pay")).click();
      visible("waiting");
      assertThat(driver.findElement(By.id("waiting-text")).getText()).contains("M-Pesa PIN");
      String sessionId = sessionIdOf(url);
      publishStkOutcome(database.getCollection(dev.lipa.checkout.session.CheckoutSessionStore.COLLECTION)
              .find(com.mongodb.client.model.Filters.eq("_id", sessionId)).first().getString("organisationId"),
          CollectionsStub.shared().callFor(sessionId), true);
      waitUpTo(20).until(ExpectedConditions.urlToBe(shop() + "/success"));
    }
  }

  @Nested
  class Leaving {

    @Test
    void theCancelLinkGoesToCancelUrl() {
      openSession("KES", "1500", "[\"CARD\"]");
      visible("cancel-link").click();
      waitUpTo(10).until(ExpectedConditions.urlToBe(shop() + "/cancel"));
    }

    @Test
    void anExpiredSessionSaysSoAndOffersNoPayment() {
      String url = openSession("KES", "1500", "[\"CARD\"]");
      ageOut(sessionIdOf(url));
      driver.get(url);
      visible("expired");
      assertThat(driver.findElement(By.id("pay")).isDisplayed()).isFalse();
    }
  }

  @Nested
  class Layout {

    @Test
    void fitsAPhoneScreen() throws IOException {
      openSession("KES", "1500", "[\"CARD\",\"MPESA_STK\"]");
      visible("card-form");
      driver.manage().window().setSize(new Dimension(390, 844));
      driver.navigate().refresh();
      visible("card-form");
      Long scrollWidth = (Long) ((org.openqa.selenium.JavascriptExecutor) driver)
          .executeScript("return document.documentElement.scrollWidth;");
      Long clientWidth = (Long) ((org.openqa.selenium.JavascriptExecutor) driver)
          .executeScript("return document.documentElement.clientWidth;");
      assertThat(scrollWidth).as("no horizontal scrolling").isLessThanOrEqualTo(clientWidth);
      byte[] png = ((org.openqa.selenium.TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
      Files.createDirectories(SCREENSHOT.getParent());
      Files.write(SCREENSHOT, png);
      driver.manage().window().setSize(new Dimension(1100, 900));
    }
  }
}
