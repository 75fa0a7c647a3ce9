package dev.lipa.common.servlet;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.catalina.connector.Connector;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.ConfigurableWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Where a service listens. A service is reached through the gateway, so by default it binds to loopback
 * ({@code lipa.bind-address}, environment {@code LIPA_BIND_ADDRESS}, default {@code 127.0.0.1}; an explicit
 * {@code server.address} wins). In a cluster it binds to the pod's address and network policies decide who may
 * connect. The operator API can get a listener of its own ({@code lipa.operator.port}).
 */
@Configuration(proxyBeanMethods = false)
class ServiceListeners {

  @Bean
  LoopbackByDefault loopbackByDefault(@Value("${server.address:}") String serverAddress,
      @Value("${lipa.bind-address:127.0.0.1}") String bindAddress) {
    return new LoopbackByDefault(serverAddress.isBlank() ? address(bindAddress, "lipa.bind-address") : null);
  }

  /** Sets the bind address unless {@code server.address} did; runs after Boot's own customizer. */
  record LoopbackByDefault(InetAddress address) implements WebServerFactoryCustomizer<ConfigurableWebServerFactory>,
      Ordered {

    @Override
    public void customize(ConfigurableWebServerFactory factory) {
      if (address != null) {
        factory.setAddress(address);
      }
    }

    @Override
    public int getOrder() {
      return Ordered.LOWEST_PRECEDENCE;
    }
  }

  static InetAddress address(String text, String setting) {
    try {
      return InetAddress.getByName(text.strip());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(setting + " is not an address: " + text, e);
    }
  }

  /**
   * Tomcat refuses an encoded slash or backslash ({@code %2F}, {@code %5C}) itself, with an HTML page; passed
   * through undecoded instead, they reach {@link PathRulesFilter}, first in the chain, which refuses them in the
   * platform's envelope like every other odd spelling.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.apache.catalina.connector.Connector")
  static class EncodedSlashes {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> encodedSlashesToThePathRules() {
      return factory -> factory.addConnectorCustomizers(ServiceListeners::passEncodedSlashesThrough);
    }
  }

  static void passEncodedSlashesThrough(Connector connector) {
    connector.setEncodedSolidusHandling("passthrough");
    connector.setEncodedReverseSolidusHandling("passthrough");
  }

  /** The operator API's own listener, when {@code lipa.operator.port} is set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.apache.catalina.connector.Connector")
  @ConditionalOnProperty("lipa.operator.port")
  static class OperatorListenerConfiguration {

    @Bean
    OperatorListener operatorListener(OperatorSettings settings, @Value("${server.address:}") String serverAddress,
        @Value("${lipa.bind-address:127.0.0.1}") String bindAddress) {
      Connector connector = new Connector();
      passEncodedSlashesThrough(connector);
      connector.setPort(settings.port());
      String address = settings.address() != null ? settings.address()
          : serverAddress.isBlank() ? bindAddress : serverAddress;
      connector.setProperty("address", address(address, "lipa.operator.address").getHostAddress());
      return new OperatorListener(connector);
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> operatorConnector(OperatorListener listener) {
      return factory -> factory.addAdditionalConnectors(listener.connector());
    }
  }

  /** The operator listener's connector; {@link #port()} is the port it is bound to (-1 before it starts). */
  record OperatorListener(Connector connector) {

    int port() {
      return connector.getLocalPort();
    }
  }
}
