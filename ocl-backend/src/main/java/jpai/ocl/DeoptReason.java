package jpai.ocl;

import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.SpeculationLog;
import jpai.compiler.GraalSpeculations;
import jpai.compiler.Speculation;

/**
 * Why a kernel function left before computing its result: the code an element function returns,
 * and the code a kernel writes to {@code jpai_status[0]}. The numbers are fixed; the runtime reads
 * them back with {@link #fromCode(int)} and explains a fallback with {@link #message()}.
 *
 * <p>The compiler marks each Java exception path with a JVMCI {@link DeoptimizationReason}
 * ({@code ExceptionPathsToDeoptimizationPhase}), and each bounds check it hoists out of a loop
 * with {@link DeoptimizationReason#LoopLimitCheck} ({@code SpeculativeBoundsCheckHoistingPhase});
 * {@link #of(DeoptimizationReason)} maps them here. Exits that a speculation made ({@link Speculation}:
 * the hoisted checks) carry it, and {@link #speculation()} names it: the runtime learns from those.
 */
public enum DeoptReason {
    /** The function computed its result. */
    NONE(0, "no exception"),
    /** An array index out of bounds: Java throws {@code ArrayIndexOutOfBoundsException}. */
    BOUNDS_CHECK(1, "an array index is out of bounds (ArrayIndexOutOfBoundsException in Java)"),
    /** A null reference: Java throws {@code NullPointerException}. */
    NULL_CHECK(2, "a reference is null (NullPointerException in Java)"),
    /** An integer division or remainder by zero: Java throws {@code ArithmeticException}. */
    DIVISION_BY_ZERO(3, "an integer is divided by zero (ArithmeticException in Java)"),
    /** A failing cast: Java throws {@code ClassCastException}. */
    CLASS_CAST(4, "a cast fails (ClassCastException in Java)"),
    /** An array allocation with a negative length: Java throws {@code NegativeArraySizeException}. */
    NEGATIVE_ARRAY_SIZE(5, "an array is allocated with a negative length (NegativeArraySizeException in Java)"),
    /** The function throws an exception itself ({@code throw}). */
    EXPLICIT_THROW(6, "the function throws an exception"),
    /** Any other path the kernel cannot follow (Graal's deoptimisation for other reasons). */
    OTHER_DEOPT(7, "the function took a path the kernel cannot run"),
    /**
     * A bounds check hoisted out of a counted loop failed ({@code SpeculativeBoundsCheckHoistingPhase}):
     * the index range the loop would use reaches beyond an array. Java may throw
     * {@code ArrayIndexOutOfBoundsException}, or not, when the loop leaves before that index.
     */
    HOISTED_BOUNDS_CHECK(8, "a loop's index range reaches beyond an array (the bounds check hoisted out of the loop failed;"
                    + " Java throws ArrayIndexOutOfBoundsException unless the loop leaves before that index)"),
    /**
     * The function reached a computation kernels leave to Java by design (the compiler's
     * {@code MethodsLeftToJava}: today the reduction of huge arguments of sin, cos and tan).
     */
    LEFT_TO_JAVA(9, "an input needs a computation kernels leave to Java (sin, cos or tan of an argument of magnitude 2^19 pi/2 or more)"),
    /**
     * An exit with a loop-invariant condition, moved from a counted loop's body to before the loop
     * ({@code LoopInvariantExitsPhase}), failed: Java throws there only if the loop reaches the test.
     */
    HOISTED_LOOP_EXIT(10, "a test moved out of a loop's body failed before the loop (Java throws only if the loop reaches that test)"),
    /**
     * The function took a branch that HotSpot's profile said it never took while it ran in Java,
     * which the kernel was compiled without ({@code UntakenBranchesAsSpeculationsPhase}).
     */
    UNTAKEN_BRANCH(11, "the function took a branch it never took while it ran in Java (the kernel was compiled from HotSpot's profile without it)"),
    /**
     * A work-group of a single-pass scan or filter waited longer than its bound for an earlier one
     * ({@link KernelParameter.Role#SPIN_LIMIT}): the device seems not to run a started work-group while
     * later ones wait for it. Nothing about the data: the runtime runs the operation in several
     * passes instead, and keeps that device off the single pass.
     */
    NO_FORWARD_PROGRESS(12, "a work-group of a single-pass scan or filter waited too long for an earlier one (the device seems not to run started work-groups while later ones wait)");

    private final int code;
    private final String message;

    DeoptReason(int code, String message) {
        this.code = code;
        this.message = message;
    }

    /**
     * The speculation whose failure this exit is (the data may be fine, the kernel's assumption was
     * wrong: recompiling without it helps), or null for an exit where Java's own code leaves the
     * kernel's path (an exception Java raises at that element, or a computation left to Java).
     */
    public Speculation speculation() {
        return switch (this) {
            case HOISTED_BOUNDS_CHECK -> Speculation.HOISTED_BOUNDS_CHECKS;
            case HOISTED_LOOP_EXIT -> Speculation.HOISTED_LOOP_EXITS;
            case UNTAKEN_BRANCH -> Speculation.UNTAKEN_BRANCHES;
            default -> null;
        };
    }

    /** The number the kernel returns and writes to {@code jpai_status[0]}. */
    public int code() {
        return code;
    }

    /** A sentence part for explanations: "an integer is divided by zero (ArithmeticException in Java)". */
    public String message() {
        return message;
    }

    /** The reason with this code; {@link #OTHER_DEOPT} for a code this version does not know. */
    public static DeoptReason fromCode(int code) {
        for (DeoptReason reason : values()) {
            if (reason.code == code) {
                return reason;
            }
        }
        return OTHER_DEOPT;
    }

    /**
     * The reason for an exit the compiler marked with {@code reason} and {@code speculation} (Graal's
     * speculation of the node, null for none): a speculation of JPAI's names the exit.
     */
    public static DeoptReason of(DeoptimizationReason reason, SpeculationLog.Speculation speculation) {
        Speculation own = GraalSpeculations.from(speculation);
        if (own != null) {
            return switch (own) {
                case HOISTED_BOUNDS_CHECKS -> HOISTED_BOUNDS_CHECK;
                case HOISTED_LOOP_EXITS -> HOISTED_LOOP_EXIT;
                case UNTAKEN_BRANCHES -> UNTAKEN_BRANCH;
            };
        }
        return of(reason);
    }

    /** The reason for a deoptimisation the compiler marked with {@code reason}. */
    public static DeoptReason of(DeoptimizationReason reason) {
        return switch (reason) {
            case BoundsCheckException -> BOUNDS_CHECK;
            case NullCheckException -> NULL_CHECK;
            case ArithmeticException -> DIVISION_BY_ZERO;
            case ClassCastException, OptimizedTypeCheckViolated, TypeCheckedInliningViolated -> CLASS_CAST;
            case RuntimeConstraint -> NEGATIVE_ARRAY_SIZE;
            case NotCompiledExceptionHandler -> EXPLICIT_THROW;
            case LoopLimitCheck -> HOISTED_BOUNDS_CHECK;
            case TransferToInterpreter -> LEFT_TO_JAVA;
            default -> OTHER_DEOPT;
        };
    }
}
