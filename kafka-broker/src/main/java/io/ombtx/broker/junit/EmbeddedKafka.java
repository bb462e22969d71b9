package io.ombtx.broker.junit;

import io.ombtx.broker.BrokerProfile;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs an embedded Kafka cluster for the annotated test class: started once before its first test, stopped after
 * its last. Tests and lifecycle methods receive it as a parameter, either the cluster itself
 * ({@code EmbeddedKafkaCluster kafka}) or its bootstrap servers ({@code @BootstrapServers String bootstrap}).
 * {@code @Nested} classes share their enclosing class's cluster unless they carry an annotation of their own.
 *
 * <pre>{@code
 * @EmbeddedKafka(brokers = 3, profile = BrokerProfile.MAX_CONSISTENCY, settings = "group.coordinator.append.linger.ms=0")
 * class ReplicationTest {
 *     @Test
 *     void writes(@BootstrapServers String bootstrap) { ... }
 * }
 * }</pre>
 *
 * For a cluster held in a field instead, see {@link EmbeddedKafkaExtension} (and tag the class
 * {@code @Tag("integration")} yourself). The annotation tags its class {@code integration}: a broker-backed test,
 * left out by {@code bin/test unit}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedKafkaExtension.class)
@Tag("integration")
public @interface EmbeddedKafka {

    /** How many brokers (1..9). */
    int brokers() default 1;

    /** The broker settings profile. */
    BrokerProfile profile() default BrokerProfile.DEFAULT;

    /** Broker settings on top of the profile, each {@code KEY=VALUE}. */
    String[] settings() default {};
}
