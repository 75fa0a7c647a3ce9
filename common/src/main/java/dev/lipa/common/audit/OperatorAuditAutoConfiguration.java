package dev.lipa.common.audit;

import com.mongodb.client.MongoClient;
import dev.lipa.common.ratelimit.ClientAddresses;
import dev.lipa.common.ratelimit.RateLimitAutoConfiguration;
import dev.lipa.common.security.OperatorTokens;
import dev.lipa.common.servlet.ServletServiceAutoConfiguration;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit log of operator calls in every servlet service with a database: {@link OperatorAuditFilter} records each
 * call of {@code /admin/**} into the service's own database ({@value OperatorAuditStore#COLLECTION}), and
 * {@code GET /admin/v1/audit} lets operators read it.
 */
@AutoConfiguration(
    after = {ServletServiceAutoConfiguration.class, RateLimitAutoConfiguration.class},
    afterName = "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = {"com.mongodb.client.MongoClient", "jakarta.servlet.Filter"})
@ConditionalOnBean(type = "com.mongodb.client.MongoClient")
@Import(AuditController.class)
public class OperatorAuditAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  OperatorAuditStore operatorAuditStore(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    return new OperatorAuditStore(client.getDatabase(database).getCollection(OperatorAuditStore.COLLECTION));
  }

  @Bean
  FilterRegistrationBean<OperatorAuditFilter> operatorAuditFilter(OperatorAuditStore store, OperatorTokens tokens,
      ClientAddresses addresses, ObjectProvider<Clock> clock,
      @Value("${spring.application.name:}") String service, JsonMapper json) {
    FilterRegistrationBean<OperatorAuditFilter> bean = new FilterRegistrationBean<>(new OperatorAuditFilter(store,
        tokens, addresses, clock.getIfAvailable(Clock::systemUTC), service.isBlank() ? null : service, json));
    bean.setOrder(ServletServiceAutoConfiguration.AUDIT_ORDER);
    return bean;
  }
}
