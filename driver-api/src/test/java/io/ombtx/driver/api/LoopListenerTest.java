package io.ombtx.driver.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class LoopListenerTest {

    @Test
    void withNoProviderOnTheClassPathADriverHoldsTheListenerThatHearsNothing() {
        assertSame(LoopListener.NONE, LoopListener.INSTALLED);
        assertFalse(LoopListener.ON);
        assertFalse(LoopListener.NONE.listening());
    }
}
