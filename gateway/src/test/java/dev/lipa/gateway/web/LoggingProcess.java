package dev.lipa.gateway.web;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.LoggerContext;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A JVM of its own for {@link GatewayLogFileTests}: Spring Boot starts its logging from the environment and the
 * gateway's logback-spring.xml exactly as in the gateway (and nothing else of it), then this writes the given number
 * of access lines, with a gateway line every tenth, and ends with a last line of each.
 */
@Configuration(proxyBeanMethods = false)
public class LoggingProcess {

  static final String LAST_ACCESS_LINE = "GET /last-access-line 200 1 ms";
  static final String LAST_GATEWAY_LINE = "the gateway's last line";

  public static void main(String[] args) throws InterruptedException {
    int lines = Integer.parseInt(args[0]);
    ConfigurableApplicationContext context = new SpringApplicationBuilder(LoggingProcess.class)
        .web(WebApplicationType.NONE)
        .run();
    Logger access = LoggerFactory.getLogger("dev.lipa.gateway.access");
    Logger gateway = LoggerFactory.getLogger(LoggingProcess.class);
    for (int i = 0; i < lines; i++) {
      access.info("GET /api/sandbox/v1/stk/all?page={}&size=20 200 {} ms access-line-{}", i % 50, i % 7, i);
      if (i % 10 == 0) {
        gateway.warn("gateway-line-{}: an upstream answered slowly", i);
      }
      if (i % 1000 == 999) {
        drained(); // the access queue drops lines when full (the gateway's choice); the test wants every one
      }
    }
    access.info(LAST_ACCESS_LINE);
    // the access line is written by the queue's thread: drained first, so the gateway's line is the file's last one
    // (otherwise a roll-over between the two could leave either in the older file)
    drained();
    gateway.warn(LAST_GATEWAY_LINE);
    drained();
    context.close();
    // what Spring Boot's shutdown hook does at exit, done here so the files are complete when the process ends
    ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();
  }

  private static void drained() throws InterruptedException {
    LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
    AsyncAppender queue = (AsyncAppender) logging.getLogger("dev.lipa.gateway.access").getAppender("ACCESS");
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (queue.getNumberOfElementsInQueue() > 0 && Instant.now().isBefore(deadline)) {
      Thread.sleep(5);
    }
  }
}
