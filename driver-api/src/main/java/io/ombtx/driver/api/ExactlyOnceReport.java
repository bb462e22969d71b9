package io.ombtx.driver.api;

/**
 * The verdict of an exactly-once check over a consume-transform-produce run.
 *
 * @param checked source records that the committed group offsets say were processed
 * @param duplicated processed source records that appear more than once in the committed output
 * @param missing processed source records absent from the committed output
 * @param unexpected committed output records whose source was not processed (or is unknown)
 * @param abortedSeen output records read with read_committed that were written in a transaction aborted on purpose
 *     (marked with the header {@link #ABORTED_HEADER}): each one is a record of an aborted transaction made visible
 */
public record ExactlyOnceReport(long checked, long duplicated, long missing, long unexpected, long abortedSeen) {

    /** The header (value {@code 1}) on every record of a transaction the driver will abort on purpose. */
    public static final String ABORTED_HEADER = "ombtx.abort";

    /** A report of a run without aborts on purpose. */
    public ExactlyOnceReport(long checked, long duplicated, long missing, long unexpected) {
        this(checked, duplicated, missing, unexpected, 0);
    }

    public boolean passed() {
        return duplicated == 0 && missing == 0 && unexpected == 0 && abortedSeen == 0;
    }
}
