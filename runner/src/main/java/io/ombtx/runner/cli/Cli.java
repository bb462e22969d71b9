package io.ombtx.runner.cli;

import io.ombtx.driver.api.KeySuggestions;
import io.ombtx.runner.config.UsageException;
import java.io.PrintStream;
import java.lang.annotation.Annotation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;

/**
 * How every omb-tx entry point reads its command line: picocli parses into an annotated options object; bad input
 * becomes one {@code error: ...} line (exit 2) and {@code --help} the generated usage (exit 0). Every command gets
 * {@code -h/--help} and the same help layout from here; its {@code @Command} gives the name, synopsis, description,
 * option list heading (default "Options:") and footer.
 */
public final class Cli {

    public static final int OK = 0;
    public static final int BAD_INPUT = 2;
    static final int USAGE_WIDTH = 110;

    /**
     * Help sections by option {@code order}: below 20 the command's own list (under its optionListHeading), from 20
     * omb-tx's run options, from 30 the embedded broker's. Plain options rather than picocli arg groups, because a
     * repeated option in a group starts a new group instance and drops the group's other values.
     */
    public static final int OMB_TX_SECTION = 20;

    public static final int BROKER_SECTION = 30;
    private static final int SECTION_END = 40;
    private static final Map<Integer, String> SECTION_HEADINGS =
            Map.of(OMB_TX_SECTION, "omb-tx options:", BROKER_SECTION, "Embedded broker:");

    /** -h/--help: last in the command's own option list. */
    private static final int HELP_ORDER = OMB_TX_SECTION - 1;

    /**
     * Checks what picocli cannot express (required together, not both, ...); throws {@link UsageException}. Run
     * after parsing, for the command and for each of its mixins that implements it, in that order.
     */
    public interface Validated {
        void validate();
    }

    /**
     * An option or parameter that must be given, with the error line when it is not. Checked after parsing, before
     * {@link Validated}, so that a mistyped option is still named first (picocli's own {@code required} is checked
     * before unmatched arguments).
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface Required {
        String value();
    }

    /** What a main does once its command line is read: returns the exit code. */
    @FunctionalInterface
    public interface Body<T, E extends Exception> {
        int run(T command) throws E;
    }

    private Cli() {}

    /**
     * Parses {@code args} into {@code command}'s annotated fields and validates them unless help was asked.
     *
     * @return whether {@code -h/--help} was given
     * @throws UsageException with a one-line message naming the option and what was expected
     */
    public static boolean parse(Object command, String[] args) {
        CommandLine line = commandLine(command);
        boolean help;
        try {
            help = line.parseArgs(args).isUsageHelpRequested();
        } catch (ParameterException e) {
            throw new UsageException(message(e));
        }
        if (!help) {
            for (ArgSpec arg : line.getCommandSpec().args()) {
                Required required = annotation(arg, Required.class);
                if (required != null && arg.getValue() == null) {
                    throw new UsageException(required.value());
                }
            }
            validate(line.getCommandSpec());
        }
        return help;
    }

    private static void validate(CommandSpec spec) {
        if (spec.userObject() instanceof Validated validated) {
            validated.validate();
        }
        spec.mixins().values().forEach(Cli::validate);
    }

    /** The annotation on the field behind {@code arg}, if any. */
    static <A extends Annotation> A annotation(ArgSpec arg, Class<A> type) {
        return arg.userObject() instanceof AnnotatedElement field ? field.getAnnotation(type) : null;
    }

    /**
     * For a main: parses as {@link #parse(Object, String[])}; on help prints the usage to {@code out}, on bad input
     * one error line to {@code err}, and returns the exit code; empty when the command should go on.
     */
    public static OptionalInt parse(Object command, String[] args, PrintStream out, PrintStream err) {
        try {
            if (parse(command, args)) {
                out.print(usage(command));
                out.flush();
                return OptionalInt.of(OK);
            }
            return OptionalInt.empty();
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            return OptionalInt.of(BAD_INPUT);
        }
    }

    /**
     * A main's whole life: parses {@code args} into {@code command} (help: the usage on {@code out}, exit 0; bad
     * input: one error line on {@code err}, exit 2), else runs {@code body}; returns the exit code.
     */
    public static <T, E extends Exception> int execute(
            T command, String[] args, PrintStream out, PrintStream err, Body<T, E> body) throws E {
        OptionalInt done = parse(command, args, out, err);
        return done.isPresent() ? done.getAsInt() : body.run(command);
    }

    /** {@link #execute} on the console, then exits the JVM with its code. */
    public static <T, E extends Exception> void main(T command, String[] args, Body<T, E> body) throws E {
        System.exit(execute(command, args, System.out, System.err, body));
    }

    /** The generated usage text of {@code command}. */
    public static String usage(Object command) {
        return commandLine(command).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    private static CommandLine commandLine(Object command) {
        CommandLine line = new CommandLine(command);
        CommandSpec spec = line.getCommandSpec();
        spec.addOption(OptionSpec.builder("-h", "--help")
                .usageHelp(true)
                .type(boolean.class)
                .order(HELP_ORDER)
                .description("this text")
                .build());
        for (ArgSpec arg : spec.args()) {
            for (ITypeConverter<?> converter : arg.converters()) {
                if (converter instanceof Converters.WholeNumber number) {
                    number.bound(arg);
                }
            }
        }
        UsageMessageSpec usage = spec.usageMessage();
        usage.sortOptions(false)
                .descriptionHeading("%n")
                .parameterListHeading("%nArguments:%n")
                .footerHeading("%n");
        if (usage.optionListHeading().isEmpty()) {
            usage.optionListHeading("%nOptions:%n");
        }
        line.setUsageHelpWidth(USAGE_WIDTH);
        line.setOverwrittenOptionsAllowed(true); // as before: the last --profile wins
        line.setExpandAtFiles(false); // an argument starting with @ is a path, not an argument file
        line.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, Cli::optionSections);
        return line;
    }

    private static String optionSections(CommandLine.Help help) {
        Map<Integer, List<OptionSpec>> sections = new TreeMap<>();
        for (OptionSpec option : help.commandSpec().options()) {
            if (!option.hidden()) {
                int order = option.order();
                int section = order >= OMB_TX_SECTION && order < SECTION_END ? order / 10 * 10 : 0;
                sections.computeIfAbsent(section, s -> new ArrayList<>()).add(option);
            }
        }
        StringBuilder text = new StringBuilder();
        sections.forEach((section, options) -> {
            options.sort(Comparator.comparingInt(OptionSpec::order));
            if (section != 0) {
                text.append(help.createHeading("%n" + SECTION_HEADINGS.get(section) + "%n"));
            }
            text.append(help.optionListExcludingGroups(
                    options, help.createDefaultLayout(), null, help.createDefaultParamLabelRenderer()));
        });
        return text.toString();
    }

    /** One line, in the words the runner has always used where it had them. */
    static String message(ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()) {
            String arg = unmatched.getUnmatched().get(0);
            if (arg.startsWith("-") && arg.length() > 1) {
                return "unknown option " + arg
                        + didYouMean(
                                arg,
                                e.getCommandLine().getCommandSpec().optionsMap().keySet()) + " (see --help)";
            }
            return "unexpected argument " + arg + " (see --help)";
        }
        ArgSpec spec = e.getArgSpec();
        if (e instanceof CommandLine.MissingParameterException missing
                && !missing.getMissing().isEmpty()) {
            spec = missing.getMissing().get(0);
            if (spec instanceof OptionSpec option) {
                return name(option) + " needs a value: " + option.paramLabel() + " (see --help)";
            }
            return "missing " + spec.paramLabel() + " (see --help)";
        }
        if (e.getCause() instanceof CommandLine.TypeConversionException conversion && spec != null) {
            return (spec instanceof PositionalParamSpec ? spec.paramLabel() : name((OptionSpec) spec)) + " "
                    + conversion.getMessage();
        }
        String text = e.getMessage();
        return text.isEmpty() ? text : text.substring(0, 1).toLowerCase(Locale.ROOT) + text.substring(1);
    }

    /** The closest option name, as for a mistyped YAML key; none for short names, where every guess is close. */
    private static String didYouMean(String typed, Collection<String> names) {
        String name = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
        if (name.length() <= 3) {
            return "";
        }
        List<String> candidates = names.stream().filter(n -> n.length() > 3).toList();
        return KeySuggestions.closest(name, candidates)
                .map(s -> "; did you mean " + s + "?")
                .orElse("");
    }

    private static String name(OptionSpec option) {
        return option.longestName();
    }
}
