package jpai.compiler.phases;

import java.util.Set;

import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.spi.Replacements;
import jdk.graal.compiler.phases.common.inlining.info.InlineInfo;
import jdk.graal.compiler.phases.common.inlining.policy.InlineEverythingPolicy;
import jdk.graal.compiler.phases.common.inlining.policy.InliningPolicy;
import jdk.graal.compiler.phases.common.inlining.walker.MethodInvocation;
import jdk.vm.ci.meta.ResolvedJavaMethod;

/**
 * Inline every call, except the {@code Math} functions that the device computes with its own
 * built-ins ({@link MathCallsToNodesPhase#keepsAsCall}) and the methods of captured element readers
 * that become array accesses ({@link ElementReaderCallsToAccessesPhase#keptCalls}), and the methods
 * kernels leave to Java ({@link MethodsLeftToJava}), whose calls become exits. OpenCL C has no
 * calls into Java: what is not inlined (recursion, native methods) is refused by
 * {@link RejectRemainingCallsPhase}.
 */
public final class KernelInliningPolicy implements InliningPolicy {

    private final InlineEverythingPolicy everything = new InlineEverythingPolicy();
    private final Set<ResolvedJavaMethod> keptCalls;

    /** Whether calls of the markers of {@code Math.sin}, {@code cos}, {@code exp} and {@code log} are left for {@link FloatArgumentMathPhase} (the first round). */
    private final boolean leavesMathSinCos;

    /** A policy that also keeps calls of {@code keptCalls} as calls. */
    public KernelInliningPolicy(Set<ResolvedJavaMethod> keptCalls) {
        this(keptCalls, false);
    }

    /**
     * A policy that also keeps calls of {@code keptCalls}, and with {@code leavesMathSinCos} the calls
     * of those markers, as calls: a first round, after which
     * {@link FloatArgumentMathPhase} rewrites those of widened {@code float}s and a second round
     * inlines them all.
     */
    public KernelInliningPolicy(Set<ResolvedJavaMethod> keptCalls, boolean leavesMathSinCos) {
        this.keptCalls = Set.copyOf(keptCalls);
        this.leavesMathSinCos = leavesMathSinCos;
    }

    public KernelInliningPolicy() {
        this(Set.of());
    }

    @Override
    public boolean continueInlining(StructuredGraph graph) {
        return everything.continueInlining(graph);
    }

    @Override
    public Decision isWorthInlining(Replacements replacements, MethodInvocation invocation, InlineInfo calleeInfo, int inliningDepth, boolean fullyProcessed) {
        if (MathCallsToNodesPhase.keepsAsCall(calleeInfo.invoke().getTargetMethod())) {
            return Decision.NO.withReason(false, "a Math function the device computes");
        }
        if (MethodsLeftToJava.contains(calleeInfo.invoke().getTargetMethod())) {
            return Decision.NO.withReason(false, "a method kernels leave to Java (the path calling it becomes an exit)");
        }
        if (leavesMathSinCos && FloatArgumentMathPhase.isMarker(calleeInfo.invoke().getTargetMethod())) {
            return Decision.NO.withReason(false, "a Math function left for the float-argument rewrite");
        }
        if (keptCalls.contains(calleeInfo.invoke().getTargetMethod())) {
            return Decision.NO.withReason(false, "a method of a captured element reader, replaced by an array access");
        }
        return everything.isWorthInlining(replacements, invocation, calleeInfo, inliningDepth, fullyProcessed);
    }
}
