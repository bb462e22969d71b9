package io.ombtx.driver.kafka;

/**
 * Thrown on a client's loop thread once it has carried out a {@link ClientFault}: it unwinds the loop past every
 * retry and error path (which must let it through untouched) to the client's owner, which finishes the fault.
 */
final class ClientHalted extends RuntimeException {

    private final transient ClientFault fault;

    ClientHalted(ClientFault fault) {
        super("halted by a client fault (" + fault.step() + ")", null, false, false);
        this.fault = fault;
    }

    ClientFault fault() {
        return fault;
    }
}
