package io.ombtx.runner.result;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.ombtx.driver.api.Phase;
import io.ombtx.runner.config.LoopMode;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The few result values whose JSON form is not Jackson's default, as annotations on the model use them, so that
 * any {@code ObjectMapper} reads and writes a {@link RunResult} the same way (no module to register).
 */
final class JsonCodecs {

    private JsonCodecs() {
    }

    /** An instant as ISO-8601 text ({@link Instant#toString()}), e.g. {@code 2026-11-22T03:28:59.815877383Z}. */
    static final class InstantWriter extends JsonSerializer<Instant> {
        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(value.toString());
        }
    }

    static final class InstantReader extends JsonDeserializer<Instant> {
        @Override
        public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            try {
                return Instant.parse(p.getValueAsString());
            } catch (DateTimeParseException e) {
                return (Instant) ctxt.handleWeirdStringValue(Instant.class, p.getText(), "not an ISO-8601 instant");
            }
        }
    }

    /** A loop mode by its key: {@code "open"} or {@code "closed"}. */
    static final class LoopWriter extends JsonSerializer<LoopMode> {
        @Override
        public void serialize(LoopMode value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(value.key());
        }
    }

    static final class LoopReader extends JsonDeserializer<LoopMode> {
        @Override
        public LoopMode deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String key = p.getValueAsString();
            for (LoopMode mode : LoopMode.values()) {
                if (mode.key().equals(key)) {
                    return mode;
                }
            }
            return (LoopMode) ctxt.handleWeirdStringValue(LoopMode.class, key, "expected 'open' or 'closed'");
        }
    }

    /** A transaction phase as a map key: {@link Phase#key()}, e.g. {@code "sendOffsets"}. */
    static final class PhaseKeyWriter extends JsonSerializer<Phase> {
        @Override
        public void serialize(Phase value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeFieldName(value.key());
        }
    }

    static final class PhaseKeyReader extends KeyDeserializer {
        @Override
        public Object deserializeKey(String key, DeserializationContext ctxt) throws IOException {
            for (Phase phase : Phase.values()) {
                if (phase.key().equals(key)) {
                    return phase;
                }
            }
            return ctxt.handleWeirdKey(Phase.class, key, "not a transaction phase");
        }
    }

    /** Text that holds a whole number is written as that number, anything else as text (a sweep's value). */
    static final class NumberOrTextWriter extends JsonSerializer<String> {
        @Override
        public void serialize(String value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            try {
                gen.writeNumber(Long.parseLong(value));
            } catch (NumberFormatException notWhole) {
                gen.writeString(value);
            }
        }
    }
}
