package io.ombtx.runner.result;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a result records of the hardware it ran on ({@link RunResult.Host}, {@link RunResult.Disk}): read from the
 * operating system (Linux's {@code /proc} and {@code /sys}; elsewhere what Java itself tells), never guessed. What
 * cannot be read is null, and nothing here throws: a result is written whatever the machine lets us see.
 */
public final class HostFacts {
    private static final Set<String> IN_MEMORY = Set.of("tmpfs", "ramfs");

    private HostFacts() {}

    /** This machine, and how it reaches {@code broker}'s brokers. */
    public static RunResult.Host host(RunResult.Broker broker) {
        return new RunResult.Host(
                Runtime.getRuntime().availableProcessors(),
                cpuModel(Path.of("/proc/cpuinfo")),
                memoryMiB(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                network(broker));
    }

    /**
     * {@code loopback} for an embedded cluster or brokers whose every address is this machine's, {@code network}
     * when one is elsewhere (or cannot be resolved now: it was reached, so it is somewhere), null without a broker.
     */
    static String network(RunResult.Broker broker) {
        if (broker == null || broker.brokers() == 0) {
            return null;
        }
        if (broker.embedded()) {
            return RunResult.Host.LOOPBACK;
        }
        if (broker.bootstrapServers() == null || broker.bootstrapServers().isBlank()) {
            return null;
        }
        for (String server : broker.bootstrapServers().split(",")) {
            if (!local(hostOf(server.trim()))) {
                return RunResult.Host.NETWORK;
            }
        }
        return RunResult.Host.LOOPBACK;
    }

    /** {@code host} of {@code host:port}, {@code [v6]:port} or a bare host. */
    static String hostOf(String server) {
        if (server.startsWith("[")) {
            int end = server.indexOf(']');
            return end > 0 ? server.substring(1, end) : server;
        }
        int colon = server.lastIndexOf(':');
        return colon > 0 && server.indexOf(':') == colon ? server.substring(0, colon) : server;
    }

    private static boolean local(String host) {
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (!address.isLoopbackAddress() && NetworkInterface.getByInetAddress(address) == null) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException | SocketException | SecurityException e) {
            return false;
        }
    }

    /** The first {@code model name} of a {@code /proc/cpuinfo}-like file, else null. */
    static String cpuModel(Path cpuinfo) {
        try {
            for (String line : Files.readAllLines(cpuinfo)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals("model name")) {
                    String model = line.substring(colon + 1).trim().replaceAll("\\s+", " ");
                    return model.isEmpty() ? null : model;
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    private static Long memoryMiB() {
        try {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                return os.getTotalMemorySize() / (1024 * 1024);
            }
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
        return null;
    }

    /** The disk under {@code dir}, as this machine's kernel describes it ({@code /sys/class/block}). */
    public static RunResult.Disk disk(Path dir) {
        return disk(dir, Path.of("/sys/class/block"));
    }

    static RunResult.Disk disk(Path dir, Path sysBlock) {
        FileStore store;
        try {
            store = Files.getFileStore(dir);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        String type = store.type();
        if (IN_MEMORY.contains(type)) {
            return new RunResult.Disk(null, type, "memory");
        }
        String device = device(store.name());
        return new RunResult.Disk(device, type, device == null ? null : kind(device, sysBlock));
    }

    /** The block device a file store's name names ({@code /dev/vda1} → {@code vda1}, links followed), else null. */
    private static String device(String name) {
        if (name == null || !name.startsWith("/dev/")) {
            return null;
        }
        Path path = Path.of(name);
        try {
            path = path.toRealPath();
        } catch (IOException | RuntimeException e) {
            // The name as the mount table gives it.
        }
        return path.getFileName() == null ? null : path.getFileName().toString();
    }

    /**
     * {@code device}'s kind from its name and {@code queue/rotational} (a partition's is its disk's). A virtio or
     * Xen disk's rotational flag says nothing of what backs it: such a disk is a {@code virtual disk}.
     */
    static String kind(String device, Path sysBlock) {
        String name = device.toLowerCase(Locale.ROOT);
        if (name.startsWith("nvme")) {
            return "NVMe";
        }
        if (name.startsWith("zram") || name.startsWith("ram")) {
            return "memory";
        }
        for (String virtual : List.of("vd", "xvd")) {
            if (name.startsWith(virtual)) {
                return "virtual disk";
            }
        }
        Path entry = sysBlock.resolve(device);
        String rotational = read(entry.resolve("queue/rotational"));
        if (rotational == null) {
            try {
                rotational = read(entry.toRealPath().getParent().resolve("queue/rotational"));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
        return switch (rotational == null ? "" : rotational) {
            case "0" -> "SSD";
            case "1" -> "rotational";
            default -> null;
        };
    }

    private static String read(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file).trim() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
