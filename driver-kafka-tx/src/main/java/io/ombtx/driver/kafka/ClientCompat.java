package io.ombtx.driver.kafka;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;

/**
 * The few kafka-clients calls whose name changed between the releases the driver runs on (it is compiled against
 * the newest and also runs on 2.8.x and 3.x clients, {@code --client-version}): each is looked up once, by name, in
 * the client actually loaded.
 */
final class ClientCompat {

    /** {@code DescribeTopicsResult.allTopicNames()} (3.1 and later), else {@code all()} (removed in 4.0). */
    private static final MethodHandle ALL_TOPIC_NAMES = describeAll();

    /** Whether the client has the Admin API's DescribeProducers (3.0 and later). */
    static final boolean DESCRIBE_PRODUCERS = present("org.apache.kafka.clients.admin.DescribeProducersOptions");

    private ClientCompat() {}

    private static boolean present(String className) {
        try {
            Class.forName(className, false, ClientCompat.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** The descriptions of {@code topics}, by name, as a future. */
    @SuppressWarnings("unchecked")
    static KafkaFuture<Map<String, TopicDescription>> describeTopics(Admin admin, Collection<String> topics) {
        DescribeTopicsResult result = admin.describeTopics(topics);
        try {
            return (KafkaFuture<Map<String, TopicDescription>>) ALL_TOPIC_NAMES.invoke(result);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static MethodHandle describeAll() {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodType type = MethodType.methodType(KafkaFuture.class);
        for (String name : new String[] {"allTopicNames", "all"}) {
            try {
                return lookup.findVirtual(DescribeTopicsResult.class, name, type);
            } catch (NoSuchMethodException | IllegalAccessException e) {
                // try the older name
            }
        }
        throw new IllegalStateException(
                "this kafka-clients has neither DescribeTopicsResult.allTopicNames() nor all()");
    }
}
