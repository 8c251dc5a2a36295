package jpai.ocl;

import java.util.List;

import jdk.vm.ci.meta.JavaKind;

/**
 * The data of a map: the element kind of each input component (one buffer each, in the order of
 * the function's arguments) and of the output.
 */
public record MapKernelSpec(List<JavaKind> inputKinds, JavaKind outputKind) {

    public MapKernelSpec {
        inputKinds = List.copyOf(inputKinds);
    }
}
