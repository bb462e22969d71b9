package io.ombtx.runner.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a result records of its machine (the findings report's "machine ≠"): the processor from a cpuinfo file, the
 * network from the brokers' addresses, a disk's kind from its name and its {@code queue/rotational}, and the record
 * written and read back.
 */
class HostFactsTest {

    @Test
    void theProcessorIsTheFirstModelNameOfCpuinfo(@TempDir Path dir) throws Exception {
        Path cpuinfo = Files.writeString(
                dir.resolve("cpuinfo"),
                "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)   CPU E5-2686 v4\n"
                        + "processor\t: 1\nmodel name\t: other\n");
        assertEquals("Intel(R) Xeon(R) CPU E5-2686 v4", HostFacts.cpuModel(cpuinfo));
        assertNull(HostFacts.cpuModel(Files.writeString(dir.resolve("arm"), "processor\t: 0\nBogoMIPS\t: 50\n")));
        assertNull(HostFacts.cpuModel(dir.resolve("absent")));
    }

    @Test
    void anEmbeddedClusterIsOnLoopbackAndNoBrokerHasNoNetwork() {
        assertEquals("loopback", HostFacts.network(RunResult.Broker.embedded(3, "2.8.2", "default", Map.of())));
        assertNull(HostFacts.network(RunResult.Broker.none()));
    }

    @Test
    void anExternalClusterIsOnLoopbackOnlyWhenEveryAddressIsThisMachines() {
        assertEquals("loopback", HostFacts.network(RunResult.Broker.external(2, "localhost:9092,127.0.0.1:9093")));
        assertEquals("loopback", HostFacts.network(RunResult.Broker.external(1, "[::1]:9092")));
        // 192.0.2.0/24 is TEST-NET-1: never an address of this machine.
        assertEquals("network", HostFacts.network(RunResult.Broker.external(2, "127.0.0.1:9092,192.0.2.7:9092")));
    }

    @Test
    void theHostOfAnAddressIsWhatPrecedesItsPort() {
        assertEquals("broker-1.example", HostFacts.hostOf("broker-1.example:9092"));
        assertEquals("::1", HostFacts.hostOf("[::1]:9092"));
        assertEquals("fe80::1", HostFacts.hostOf("fe80::1"));
        assertEquals("broker", HostFacts.hostOf("broker"));
    }

    @Test
    void aDiskIsNamedByItsDeviceElseByItsRotationalFlag(@TempDir Path sys) throws Exception {
        assertEquals("NVMe", HostFacts.kind("nvme0n1p1", sys));
        assertEquals("virtual disk", HostFacts.kind("vda", sys));
        assertEquals("virtual disk", HostFacts.kind("xvda1", sys));
        assertEquals("memory", HostFacts.kind("zram0", sys));
        rotational(sys.resolve("sda"), "0");
        assertEquals("SSD", HostFacts.kind("sda", sys));
        rotational(sys.resolve("sdb"), "1");
        assertEquals("rotational", HostFacts.kind("sdb", sys));
        // A partition has no queue of its own: its disk's is read, one folder up (as /sys/class/block's links lead).
        Path partition = Files.createDirectories(sys.resolve("sdb").resolve("sdb1"));
        Files.createSymbolicLink(sys.resolve("sdb1-link"), partition);
        assertEquals("rotational", HostFacts.kind("sdb1-link", sys));
        assertNull(HostFacts.kind("md0", sys));
    }

    @Test
    void theDiskOfAFolderNamesItsFileSystem(@TempDir Path dir) {
        RunResult.Disk disk = HostFacts.disk(dir);
        assertNotNull(disk);
        assertNotNull(disk.fileSystem());
        if (disk.fileSystem().equals("tmpfs")) {
            assertEquals("memory", disk.kind());
        }
        assertNull(HostFacts.disk(dir.resolve("absent")));
    }

    @Test
    void theHostIsWrittenAndReadBack() throws Exception {
        RunResult.Host host = HostFacts.host(RunResult.Broker.embedded(1, "4.1.1", "default", Map.of()));
        assertEquals(Runtime.getRuntime().availableProcessors(), host.cpus());
        assertTrue(host.memoryMiB() == null || host.memoryMiB() > 0, host.toString());
        assertTrue(host.os().contains(System.getProperty("os.arch")), host.os());
        String json = ResultWriter.json().writeValueAsString(host);
        assertTrue(json.contains("\"network\" : \"loopback\""), json);
        assertEquals(host, ResultWriter.json().readValue(json, RunResult.Host.class));
        RunResult.Broker broker = RunResult.Broker.embedded(1, "4.1.1", "default", Map.of())
                .withDataDisk(new RunResult.Disk("nvme0n1", "xfs", "NVMe"))
                .withRunOnCluster(2);
        assertEquals("NVMe", broker.dataDisk().kind());
        assertEquals(
                broker,
                ResultWriter.json().readValue(ResultWriter.json().writeValueAsString(broker), RunResult.Broker.class));
    }

    private static void rotational(Path device, String flag) throws Exception {
        Files.createDirectories(device.resolve("queue"));
        Files.writeString(device.resolve("queue/rotational"), flag + "\n");
    }
}
