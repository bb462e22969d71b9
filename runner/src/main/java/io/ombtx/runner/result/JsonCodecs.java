package io.ombtx.runner.result;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.ombtx.driver.api.EnumKeys;
import io.ombtx.driver.api.Phase;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.Function;

/**
 * The few result values whose JSON form is not Jackson's default, as annotations on the model use them, so that
 * any {@code ObjectMapper} reads and writes a {@link RunResult} the same way (no module to register).
 */
final class JsonCodecs {

    private JsonCodecs() {}

    /** Writes a value as the text a function gives. */
    abstract static class TextWriter<T> extends JsonSerializer<T> {
        private final Function<T, String> text;

        TextWriter(Function<T, String> text) {
            this.text = text;
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(text.apply(value));
        }
    }

    /** Reads a value from text; text the parser rejects (null) is reported as {@code expected} says. */
    abstract static class TextReader<T> extends JsonDeserializer<T> {
        private final Class<T> type;
        private final String expected;
        private final Function<String, T> parse;

        TextReader(Class<T> type, String expected, Function<String, T> parse) {
            this.type = type;
            this.expected = expected;
            this.parse = parse;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String text = p.getValueAsString();
            T value = text == null ? null : parse.apply(text);
            return value != null ? value : type.cast(ctxt.handleWeirdStringValue(type, text, expected));
        }
    }

    /** An instant as ISO-8601 text ({@link Instant#toString()}), e.g. {@code 2026-11-22T03:28:59.815877383Z}. */
    static final class InstantWriter extends TextWriter<Instant> {
        InstantWriter() {
            super(Instant::toString);
        }
    }

    static final class InstantReader extends TextReader<Instant> {
        InstantReader() {
            super(Instant.class, "not an ISO-8601 instant", JsonCodecs::instantOrNull);
        }
    }

    private static Instant instantOrNull(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
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
            Optional<Phase> phase = EnumKeys.find(Phase.values(), Phase::key, key);
            return phase.isPresent() ? phase.get() : ctxt.handleWeirdKey(Phase.class, key, "not a transaction phase");
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
