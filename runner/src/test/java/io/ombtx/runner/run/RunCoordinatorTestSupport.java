package io.ombtx.runner.run;

import io.ombtx.runner.cluster.ClusterSystem;

/** For tests that hand the coordinator a cluster already reached: a broker system never to be asked. */
final class RunCoordinatorTestSupport {

    static final ClusterSystem NO_CLUSTER = (plan, driver, log) -> {
        throw new AssertionError("the test reached its cluster itself; no broker system is asked");
    };

    private RunCoordinatorTestSupport() {}
}
