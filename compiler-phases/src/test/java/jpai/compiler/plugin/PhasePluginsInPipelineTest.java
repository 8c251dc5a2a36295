package jpai.compiler.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.NegateNode;
import jdk.graal.compiler.nodes.calc.SubNode;
import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.Phase;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.MathFunctions;
import jpai.compiler.PhaseTimings;
import jpai.compiler.ValueShape;

/**
 * Phase plugins in {@link KernelGraphCompiler}'s pipeline: each runs at its point, on the graph
 * that point promises, in order, timed under its name; what it changes reaches the kernel graph;
 * one that throws or bails out is a bailout that names it.
 */
class PhasePluginsInPipelineTest {

    private static final Method APPLY = apply();

    private static Method apply() {
        try {
            return Function.class.getMethod("apply", Object.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** A plugin whose phase hands the graph to {@code inspect}. */
    record InspectingPlugin(String name, PipelinePoint point, Consumer<StructuredGraph> inspect) implements PhasePlugin {
        @Override
        public BasePhase<? super HighTierContext> newPhase() {
            return new Phase() {
                @Override
                public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
                    return ALWAYS_APPLICABLE;
                }

                @Override
                protected void run(StructuredGraph graph) {
                    inspect.accept(graph);
                }
            };
        }
    }

    private static KernelGraph compile(Function<Integer, Integer> function, PhasePlugin... plugins) {
        KernelGraphCompiler compiler = new KernelGraphCompiler(MathFunctions.JAVA, PhasePlugins.of(List.of(plugins)));
        return compiler.compile(function, APPLY, new KernelSignature(List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class)));
    }

    private static int indexOf(PhaseTimings timings, String step) {
        List<String> names = timings.steps().stream().map(PhaseTimings.Step::name).toList();
        assertTrue(names.contains(step), step + " in " + names);
        return names.indexOf(step);
    }

    private static int twice(int x) {
        return x + x;
    }

    @Test
    void eachPointSeesTheGraphItPromisesAndPluginsAreTimedUnderTheirNamesInOrder() {
        Map<String, Boolean> seen = new ConcurrentHashMap<>();
        Function<Integer, Integer> f = x -> twice(x) * 3 + 1;
        KernelGraph kernel = compile(f,
                        new InspectingPlugin("parsed", PipelinePoint.AFTER_PARSING, graph -> {
                            seen.put("parsed: calls not inlined", graph.getNodes().filter(n -> n instanceof Invoke).isNotEmpty());
                            seen.put("parsed: frame states", graph.getNodes().filter(FrameState.class).isNotEmpty());
                        }),
                        new InspectingPlugin("high tier", PipelinePoint.AFTER_HIGH_TIER, graph -> {
                            seen.put("high tier: no calls", graph.getNodes().filter(n -> n instanceof Invoke).isEmpty());
                            seen.put("high tier: frame states", graph.getNodes().filter(FrameState.class).isNotEmpty());
                            seen.put("high tier: object parameters", graph.getNodes(ParameterNode.TYPE).snapshot().stream().anyMatch(p -> p.getStackKind() == JavaKind.Object));
                        }),
                        new InspectingPlugin("kernel", PipelinePoint.AFTER_KERNEL_PHASES, graph -> {
                            seen.put("kernel: no frame states", graph.getNodes().filter(FrameState.class).isEmpty());
                            seen.put("kernel: only primitive parameters in use",
                                            graph.getNodes(ParameterNode.TYPE).snapshot().stream().noneMatch(p -> p.hasUsages() && p.getStackKind() == JavaKind.Object));
                        }),
                        new InspectingPlugin("kernel, second", PipelinePoint.AFTER_KERNEL_PHASES, graph -> seen.put("kernel, second", true)));
        assertEquals(8, seen.size(), seen.toString());
        assertFalse(seen.containsValue(false), seen.toString());
        PhaseTimings timings = kernel.timings();
        assertEquals(indexOf(timings, "parse bytecode") + 1, indexOf(timings, "parsed"));
        assertEquals(indexOf(timings, "drop frame states") - 1, indexOf(timings, "high tier"));
        List<PhaseTimings.Step> steps = timings.steps();
        assertEquals("kernel", steps.get(steps.size() - 2).name());
        assertEquals("kernel, second", steps.get(steps.size() - 1).name(), "plugins of one point run in the order given, last of all");
        assertEquals(4, kernel.plugins().plugins().size());
    }

    @Test
    void whatAPluginChangesReachesTheKernelGraph() {
        Function<Integer, Integer> f = x -> -x;
        PhasePlugin negationsAsSubtractions = new InspectingPlugin("-x as 0 - x", PipelinePoint.AFTER_KERNEL_PHASES, graph -> {
            for (NegateNode negation : graph.getNodes().filter(NegateNode.class).snapshot()) {
                SubNode difference = graph.addOrUniqueWithInputs(new SubNode(ConstantNode.forInt(0), negation.getValue()));
                negation.replaceAtUsagesAndDelete(difference);
            }
        });
        assertTrue(compile(f).graph().getNodes().filter(NegateNode.class).isNotEmpty(), "Graal keeps -x (the plugin below has something to do)");
        StructuredGraph graph = compile(f, negationsAsSubtractions).graph();
        assertTrue(graph.getNodes().filter(NegateNode.class).isEmpty());
        assertEquals(1, graph.getNodes().filter(SubNode.class).count());
    }

    @Test
    void aThrowingPluginIsABailoutThatNamesIt() {
        Function<Integer, Integer> f = x -> x + 1;
        PhasePlugin broken = new InspectingPlugin("broken research phase", PipelinePoint.AFTER_HIGH_TIER, graph -> {
            throw new IllegalStateException("the phase's bug");
        });
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile(f, broken));
        assertEquals("broken research phase", e.failedPhasePlugin());
        assertFalse(e.isInternalError(), "not JPAI's bug");
        assertTrue(e.getMessage().startsWith("the phase plugin broken research phase (after Graal high tier) failed: java.lang.IllegalStateException: the phase's bug at "),
                        e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    @Test
    void aPluginThatBailsOutIsNamedInTheReasonButIsNoFailure() {
        Function<Integer, Integer> f = x -> x + 1;
        PhasePlugin refusing = new InspectingPlugin("picky phase", PipelinePoint.AFTER_PARSING, graph -> {
            throw new KernelBailoutException("it only takes loops", null);
        });
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile(f, refusing));
        assertNull(e.failedPhasePlugin());
        assertEquals("the phase plugin picky phase (after parsing) bailed out: it only takes loops", e.getMessage());
    }

    @Test
    void aFailureAfterAPluginChangedTheGraphNamesThePlugins() {
        Function<Integer, Integer> f = x -> x + 1;
        PhasePlugin breaking = new InspectingPlugin("graph breaker", PipelinePoint.AFTER_HIGH_TIER, graph -> {
            AddNode add = graph.getNodes().filter(AddNode.class).first();
            add.setY(null); // a required input left empty
        });
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile(f, breaking));
        assertTrue(e.isInternalError() && e.getMessage().contains("(after the phase plugins graph breaker (after Graal high tier))"), e.getMessage());
    }

    @Test
    void pluginsAreEqualWhenTheSamePluginsRunInTheSameOrder() {
        PhasePlugin a = new InspectingPlugin("a", PipelinePoint.AFTER_PARSING, graph -> { });
        PhasePlugin aAgain = new InspectingPlugin("a", PipelinePoint.AFTER_PARSING, graph -> { });
        PhasePlugin aElsewhere = new InspectingPlugin("a", PipelinePoint.AFTER_KERNEL_PHASES, graph -> { });
        PhasePlugin b = new InspectingPlugin("b", PipelinePoint.AFTER_PARSING, graph -> { });
        assertEquals(PhasePlugins.of(List.of(a, b)), PhasePlugins.of(List.of(aAgain, b)));
        assertEquals(PhasePlugins.of(List.of(a, b)).hashCode(), PhasePlugins.of(List.of(aAgain, b)).hashCode());
        assertNotEquals(PhasePlugins.of(List.of(a, b)), PhasePlugins.of(List.of(b, a)));
        assertNotEquals(PhasePlugins.of(List.of(a)), PhasePlugins.of(List.of(aElsewhere)));
        assertNotEquals(PhasePlugins.NONE, PhasePlugins.of(List.of(a)));
        assertEquals(PhasePlugins.NONE, PhasePlugins.of(new ArrayList<>()));
        assertEquals("a (after parsing), b (after parsing)", PhasePlugins.of(List.of(a, b)).description());
    }
}
