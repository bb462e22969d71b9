package io.ombtx.broker.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code String} parameter of a test, lifecycle method or constructor to receive the embedded cluster's
 * bootstrap servers ({@code host:port,...}), under {@link EmbeddedKafka} or {@link EmbeddedKafkaExtension}.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface BootstrapServers {}
