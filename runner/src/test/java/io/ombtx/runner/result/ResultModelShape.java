package io.ombtx.runner.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ombtx.driver.api.Phase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The result file's shape as the Java model declares it, read by reflection through Jackson's own view of the
 * records (property names and order, {@code @JsonUnwrapped} prefixes, inclusion, enum names): every property path with
 * its JSON types and, for an enum, its names. {@link #draft()} turns it into a first draft of a JSON Schema (how
 * docs/result.schema.json began; run {@link #main} to print one); {@code ResultSchemaTest} checks the committed
 * schema against it, so that the schema and the model name the same fields.
 *
 * <p>Paths join object keys with dots; an array's items have their array's path, a map's values the map's path plus
 * {@code .*}: {@code faults.action}, {@code transactionPhases.*.p50}.
 */
final class ResultModelShape {

    /**
     * One property.
     *
     * @param types its JSON types (integer, number, string, boolean, array, object), null included when the model may
     *     write null
     * @param names the names an enum writes, or null when it is not one
     * @param omittable absent from a file when empty or null ({@code @JsonInclude}); otherwise always written
     * @param openKeys a map whose keys are free (its values' path is {@code path.*}), else null
     */
    record Property(String path, Set<String> types, List<String> names, boolean omittable, Boolean openKeys) {}

    private final ObjectMapper json = ResultWriter.json();
    private final Map<String, Property> properties = new LinkedHashMap<>();

    private ResultModelShape() {}

    /** Every property path of a result file, in the file's order. */
    static Map<String, Property> properties() {
        ResultModelShape shape = new ResultModelShape();
        shape.draftOf(shape.json.constructType(RunResult.class), "");
        return shape.properties;
    }

    /** A first draft of the schema: types, enums, required members; descriptions left to write. */
    static ObjectNode draft() {
        ResultModelShape shape = new ResultModelShape();
        ObjectNode root = shape.draftOf(shape.json.constructType(RunResult.class), "");
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        return root;
    }

    public static void main(String[] args) throws Exception {
        System.out.println(ResultWriter.json().writeValueAsString(draft()));
    }

    private ObjectNode draftOf(JavaType type, String path) {
        ObjectNode schema = json.createObjectNode();
        Class<?> raw = type.getRawClass();
        if (raw == int.class || raw == long.class || raw == Integer.class || raw == Long.class) {
            schema.put("type", "integer");
        } else if (raw == double.class || raw == Double.class) {
            schema.put("type", "number");
        } else if (raw == boolean.class || raw == Boolean.class) {
            schema.put("type", "boolean");
        } else if (raw == String.class || raw == Instant.class) {
            schema.put("type", "string");
        } else if (raw.isEnum()) {
            schema.put("type", "string");
            ArrayNode names = schema.putArray("enum");
            enumNames(raw).forEach(names::add);
        } else if (type.isCollectionLikeType()) {
            schema.put("type", "array");
            schema.set("items", draftOf(type.getContentType(), path));
        } else if (type.isMapLikeType()) {
            schema.put("type", "object");
            if (type.getKeyType().getRawClass() == Phase.class) {
                ArrayNode keys = schema.putObject("propertyNames").putArray("enum");
                Arrays.stream(Phase.values()).map(Phase::key).forEach(keys::add);
            }
            if (type.getContentType().getRawClass() != Object.class) {
                schema.set("additionalProperties", draftOf(type.getContentType(), path + ".*"));
            }
        } else {
            schema.put("type", "object");
            schema.put("additionalProperties", false);
            ObjectNode members = schema.putObject("properties");
            ArrayNode required = json.createArrayNode();
            addMembers(type, "", path, members, required);
            if (!required.isEmpty()) {
                schema.set("required", required);
            }
        }
        return schema;
    }

    /** The bean's properties into {@code members} (an unwrapped member's under its prefix, at the same level). */
    private void addMembers(JavaType type, String prefix, String path, ObjectNode members, ArrayNode required) {
        BeanDescription bean = json.getSerializationConfig().introspect(type);
        JsonInclude classInclusion = type.getRawClass().getAnnotation(JsonInclude.class);
        for (BeanPropertyDefinition property : bean.findProperties()) {
            if (!property.couldSerialize()) {
                continue;
            }
            AnnotatedMember accessor = property.getAccessor();
            JsonUnwrapped unwrapped = accessor.getAnnotation(JsonUnwrapped.class);
            if (unwrapped != null && unwrapped.enabled()) {
                addMembers(property.getPrimaryType(), prefix + unwrapped.prefix(), path, members, required);
                continue;
            }
            String name = prefix + property.getName();
            String at = path.isEmpty() ? name : path + "." + name;
            properties.put(at, null); // its place, before its members'
            ObjectNode member = draftOf(property.getPrimaryType(), at);
            JsonSerialize custom = accessor.getAnnotation(JsonSerialize.class);
            if (custom != null && custom.using() == JsonCodecs.NumberOrTextWriter.class) {
                member.putArray("type").add("integer").add("string");
            }
            JsonInclude inclusion = accessor.getAnnotation(JsonInclude.class);
            JsonInclude.Include include = inclusion != null
                    ? inclusion.value()
                    : classInclusion != null ? classInclusion.value() : JsonInclude.Include.ALWAYS;
            // Inclusion leaves out nulls (and empty values): never a primitive's.
            boolean omittable = (include == JsonInclude.Include.NON_NULL
                            || include == JsonInclude.Include.NON_EMPTY
                            || include == JsonInclude.Include.NON_ABSENT)
                    && !property.getPrimaryType().isPrimitive();
            boolean nullable = !omittable && !property.getPrimaryType().isPrimitive();
            members.set(name, member);
            if (!omittable) {
                required.add(name);
            }
            record(at, member, nullable, omittable);
        }
    }

    private void record(String path, ObjectNode member, boolean nullable, boolean omittable) {
        Set<String> types = new TreeSet<>();
        if (member.get("type").isArray()) {
            member.get("type").forEach(t -> types.add(t.asText()));
        } else {
            types.add(member.get("type").asText());
        }
        if (nullable) {
            types.add("null");
        }
        List<String> names = null;
        ObjectNode described = member.has("items") ? (ObjectNode) member.get("items") : member;
        if (described.has("enum")) {
            names = new ArrayList<>();
            for (var name : described.get("enum")) {
                names.add(name.asText());
            }
        }
        Boolean openKeys = member.get("type").asText().equals("object") && !member.has("properties")
                ? !member.has("propertyNames")
                : null;
        properties.put(path, new Property(path, Set.copyOf(types), names, omittable, openKeys));
    }

    private List<String> enumNames(Class<?> type) {
        List<String> names = new ArrayList<>();
        for (Object constant : type.getEnumConstants()) {
            names.add(json.valueToTree(constant).asText());
        }
        return names;
    }
}
