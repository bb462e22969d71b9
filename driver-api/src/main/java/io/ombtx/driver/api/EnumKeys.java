package io.ombtx.driver.api;

import java.util.Optional;
import java.util.function.Function;

/** Finds an enum constant by the name it has in files and on the wire (its "key"). */
public final class EnumKeys {

    private EnumKeys() {}

    public static <E extends Enum<E>> Optional<E> find(E[] values, Function<E, String> key, String text) {
        for (E value : values) {
            if (key.apply(value).equals(text)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
