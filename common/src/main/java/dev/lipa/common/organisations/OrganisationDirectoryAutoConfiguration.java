package dev.lipa.common.organisations;

import com.mongodb.client.MongoClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/**
 * Gives a service its own copy of the organisation profiles when it sets
 * {@code lipa.organisations.directory.enabled=true}: an {@link OrganisationDirectory} over the collection
 * {@value OrganisationDirectory#COLLECTION} of its own database ({@code spring.mongodb.database}) and the listener
 * that fills it. Services that show no organisation objects leave it off and run no consumer.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
    "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration"})
@ConditionalOnClass(name = {"com.mongodb.client.MongoClient",
    "org.springframework.kafka.annotation.KafkaListener"})
@ConditionalOnProperty(name = "lipa.organisations.directory.enabled", havingValue = "true")
public class OrganisationDirectoryAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  OrganisationDirectory organisationDirectory(MongoClient client,
      @Value("${spring.mongodb.database}") String database) {
    return new OrganisationDirectory(client.getDatabase(database).getCollection(OrganisationDirectory.COLLECTION));
  }

  @Bean
  @ConditionalOnMissingBean
  OrganisationDirectoryListener organisationDirectoryListener(OrganisationDirectory directory, JsonMapper json) {
    return new OrganisationDirectoryListener(directory, json);
  }
}
