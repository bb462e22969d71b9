package io.ombtx.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ombtx.runner.worker.LocalWorker;
import io.ombtx.runner.worker.Worker;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnsembleTest {

    @Test
    void aloneAWorkerDoesBothAndSeveralSplitAsOmbDoes() {
        Worker a = new LocalWorker();
        Worker b = new LocalWorker();
        Worker c = new LocalWorker();
        Ensemble one = Ensemble.of(List.of(a));
        assertEquals(List.of(a), one.producers());
        assertEquals(List.of(a), one.consumers());
        assertEquals(List.of(a), one.all());
        Ensemble three = Ensemble.of(List.of(a, b, c));
        assertEquals(List.of(a), three.producers(), "the first half (rounded down) produce");
        assertEquals(List.of(b, c), three.consumers());
        assertEquals(List.of(a, b, c), three.all());
    }
}
