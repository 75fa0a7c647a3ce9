/** A tiny module for {@code ArchitectureRulesTests}: two features, each rule broken once on purpose. */
package dev.lipa.common.testsupport.archfixture;
