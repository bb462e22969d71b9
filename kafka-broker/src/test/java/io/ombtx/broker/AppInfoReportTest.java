package io.ombtx.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker's version report survives an app-info MBean that cannot be read at the first look. */
class AppInfoReportTest {

    /** Kafka 4's metrics-style app-info MBean; its first getMBeanInfo fails, as one unregistered meanwhile does. */
    private static final class FlakyAppInfo implements DynamicMBean {
        final AtomicInteger looks = new AtomicInteger();
        volatile boolean failNext;

        @Override
        public Object getAttribute(String attribute) {
            return attribute.equals("version") ? "9.9.9" : "abc123";
        }

        @Override
        public void setAttribute(Attribute attribute) {}

        @Override
        public AttributeList getAttributes(String[] attributes) {
            return new AttributeList();
        }

        @Override
        public AttributeList setAttributes(AttributeList attributes) {
            return attributes;
        }

        @Override
        public Object invoke(String actionName, Object[] params, String[] signature) {
            return null;
        }

        @Override
        public MBeanInfo getMBeanInfo() {
            looks.incrementAndGet();
            if (failNext) {
                failNext = false;
                throw new IllegalStateException("not readable at the first look");
            }
            return new MBeanInfo(
                    FlakyAppInfo.class.getName(),
                    "app-info",
                    new MBeanAttributeInfo[] {
                        new MBeanAttributeInfo("version", "java.lang.String", "version", true, false, false),
                        new MBeanAttributeInfo("commit-id", "java.lang.String", "commit", true, false, false)
                    },
                    null,
                    null,
                    null);
        }
    }

    @Test
    void aLookThatFailsIsRetriedAndTheReportIsWritten(@TempDir Path dir) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("kafka.server:type=app-info,id=app-info-report-test");
        FlakyAppInfo bean = new FlakyAppInfo();
        server.registerMBean(bean, name); // registering reads the MBean's info once
        bean.failNext = true;
        int atRegistration = bean.looks.get();
        try {
            Path file = dir.resolve("app-info.properties");
            // The call returns once it has written the report; before, the failed first look ended it without one.
            ChildKafkaMain.reportAppInfo(file);
            List<String> lines = Files.readAllLines(file);
            assertEquals("version=9.9.9", lines.get(0));
            assertEquals("commitId=abc123", lines.get(1));
            assertEquals(true, bean.looks.get() >= atRegistration + 2, "looked again after the failed look");
        } finally {
            server.unregisterMBean(name);
        }
    }
}
