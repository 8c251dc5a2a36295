package jpai.ocl;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraph;
import jpai.ocl.OpenCLKernelGenerator.KernelSignatureBuilder;
import jpai.ocl.codegen.CodeWriter;
import jpai.ocl.codegen.FunctionEmitter;
import jpai.ocl.codegen.FunctionEmitter.EmittedFunction;
import jpai.ocl.codegen.FunctionEmitter.ParameterKind;

/**
 * Maps fused into a reduction's or a scan's kernel: each input element goes through the stages one
 * after the other, in registers, so no mapped array exists. Each stage reads the previous one's
 * value as it would read it from an array of its type (stored, then loaded: a narrowing is kept).
 * Emits the stages' functions, declares their captured values (after the kernel's own, stage 0's
 * first) and the calls; a stage that exits sets {@code reason} and {@code failed} (the element) and
 * leaves the enclosing loop, as the kernels' own failures do. With two or more stages a stage that
 * writes a captured array is refused: Java runs each map over the whole array before the next, so a
 * later stage could read what an earlier one wrote.
 */
final class MapperChain {

    private final List<KernelGraph> stages;
    /** The input's components, then each stage's result components. */
    private final List<List<JavaKind>> components;
    private final List<EmittedFunction> functions = new ArrayList<>();
    private final List<List<String>> captureNames = new ArrayList<>();

    /** No stage: the elements are the input's. */
    static MapperChain none(List<JavaKind> input) {
        return new MapperChain(List.of(), List.of(input), null);
    }

    /**
     * @param stages the stages' graphs, in order of application
     * @param components the input's components and each stage's result's ({@code stages.size() + 1} lists)
     */
    MapperChain(List<KernelGraph> stages, List<List<JavaKind>> components, ExactFloatDivSqrt helpers) {
        if (components.size() != stages.size() + 1) {
            throw new IllegalArgumentException("a mapper chain has one component list more than stages: " + stages.size() + " stages, " + components.size() + " lists");
        }
        this.stages = List.copyOf(stages);
        this.components = List.copyOf(components);
        for (int k = 0; k < stages.size(); k++) {
            KernelGraph stage = stages.get(k);
            for (int c = 0; c < stage.captures().size() && stages.size() > 1; c++) {
                if (FunctionEmitter.isWritten(stage, c)) {
                    throw new jpai.compiler.KernelBailoutException("map " + (k + 1) + " (" + stage.lambda().displayName()
                                    + ") writes a captured array, which a later map could read before Java's order has written it", null);
                }
            }
            // the stage number in the name: one lambda may be two stages
            EmittedFunction function = new FunctionEmitter(stage, "jpai_m" + k + "_" + stage.lambda().identifier(), null, helpers).emit();
            OpenCLKernelGenerator.requireComponents("map " + (k + 1) + "'s arguments", function.parameters(ParameterKind.ARGUMENT), components.get(k));
            OpenCLKernelGenerator.requireComponents("map " + (k + 1) + "'s result", function.parameters(ParameterKind.RESULT), components.get(k + 1));
            functions.add(function);
        }
    }

    boolean isEmpty() {
        return stages.isEmpty();
    }

    List<JavaKind> inputComponents() {
        return components.get(0);
    }

    List<JavaKind> elementComponents() {
        return components.get(components.size() - 1);
    }

    List<EmittedFunction> functions() {
        return functions;
    }

    /** Whether a stage has loops: then the elements are compute-bound, not load-bound. */
    boolean hasLoops() {
        return stages.stream().anyMatch(stage -> stage.graph().hasLoops());
    }

    /** The stages' kinds of every component, for the program's pragmas. */
    List<JavaKind> allKinds() {
        List<JavaKind> all = new ArrayList<>();
        components.forEach(all::addAll);
        return all;
    }

    /** "lambda at A.java:3 then lambda at A.java:4 then ", or "" without stages. */
    String descriptionPrefix() {
        StringBuilder text = new StringBuilder();
        for (KernelGraph stage : stages) {
            text.append(stage.lambda().displayName()).append(" then ");
        }
        return text.toString();
    }

    /** The phase plugins that ran on the stages' graphs, or null. */
    String plugins() {
        LinkedHashSet<String> plugins = new LinkedHashSet<>();
        for (KernelGraph stage : stages) {
            String of = OpenCLKernelGenerator.pluginsOf(stage, null);
            if (of != null) {
                plugins.add(of);
            }
        }
        return plugins.isEmpty() ? null : String.join("; ", plugins);
    }

    /** Declares the stages' captured values from slot {@code firstSlot} on; returns them in slot order. */
    List<CapturedValue> declareCaptures(KernelSignatureBuilder parameters, int firstSlot) {
        List<CapturedValue> captures = new ArrayList<>();
        captureNames.clear();
        for (KernelGraph stage : stages) {
            captureNames.add(parameters.captures(stage, firstSlot + captures.size()));
            captures.addAll(stage.captures());
        }
        return captures;
    }

    /**
     * The element of the input whose components (value-typed) are {@code inputs}, at {@code index}:
     * the stages' calls, each leaving the enclosing loop on a failure; returns the last stage's
     * result variables (the inputs themselves without stages).
     */
    List<String> emit(CodeWriter code, List<String> inputs, String index) {
        List<String> arguments = inputs;
        for (int k = 0; k < stages.size(); k++) {
            List<JavaKind> kinds = components.get(k + 1);
            List<String> results = OpenCLKernelGenerator.declareComponents(code, "e" + k + "_", kinds);
            code.line("reason = " + OpenCLKernelGenerator.call(functions.get(k), captureNames.get(k), arguments, OpenCLKernelGenerator.addressesOf(results)) + ";");
            code.open("if (reason != 0)");
            code.line("failed = " + index + ";");
            code.line("break;");
            code.close();
            if (k == stages.size() - 1) {
                return results; // the kernel stores it in its element type
            }
            arguments = new ArrayList<>();
            for (int c = 0; c < kinds.size(); c++) {
                String valueType = OpenCLTypes.valueType(kinds.get(c));
                boolean sameType = valueType.equals(OpenCLTypes.storageType(kinds.get(c)));
                arguments.add(sameType ? results.get(c) : "(" + valueType + ") " + OpenCLKernelGenerator.store(kinds.get(c), results.get(c)));
            }
        }
        return arguments;
    }
}
