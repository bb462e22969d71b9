package io.ombtx.driver.api;

/**
 * The verdict of an exactly-once check over a consume-transform-produce run.
 *
 * @param checked source records that the committed group offsets say were processed
 * @param duplicated processed source records that appear more than once in the committed output
 * @param missing processed source records absent from the committed output
 * @param unexpected committed output records whose source was not processed (or is unknown)
 */
public record ExactlyOnceReport(long checked, long duplicated, long missing, long unexpected) {

    public boolean passed() {
        return duplicated == 0 && missing == 0 && unexpected == 0;
    }
}
