package jpai.runtime.exec;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Gives every function class its own copy of {@link ChunkLoopsTemplate}, as a hidden class made
 * from the same class file.
 *
 * <p>Why: the JIT compiles a loop for the receiver types its profile saw at each call site. With
 * one shared loop, every lambda ever mapped and every element type ever read lands in the same
 * profile, the calls {@code function.apply}, {@code input.read} and {@code output.write} become
 * megamorphic, nothing is inlined, and every element pays three virtual calls and its boxes on the
 * heap: measured, a float map ran 10 to 20 times slower once a few other maps had run. In its own
 * copy a function's loop sees one lambda class and (usually) one element type: the JIT inlines the
 * lambda and the element access, and escape analysis can remove the boxes.
 *
 * <p>A copy is made once per function class (capturing lambdas of one source site share their
 * class) and can be unloaded with it.
 */
final class ChunkLoopCopies {

    private static final byte[] TEMPLATE = classFile(ChunkLoopsTemplate.class);

    private static final ClassValue<ChunkLoops> COPIES = new ClassValue<>() {
        @Override
        protected ChunkLoops computeValue(Class<?> functionClass) {
            return newCopy();
        }
    };

    private ChunkLoopCopies() {
    }

    /** The loops to run {@code function} with: the copy of its class. */
    static ChunkLoops of(Object function) {
        return COPIES.get(function.getClass());
    }

    private static ChunkLoops newCopy() {
        try {
            // Not STRONG: the copy can be unloaded once the function's class (holding it through COPIES) is.
            MethodHandles.Lookup copy = MethodHandles.lookup().defineHiddenClass(TEMPLATE, true);
            return (ChunkLoops) copy.findConstructor(copy.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("cannot copy " + ChunkLoopsTemplate.class.getName(), e);
        }
    }

    private static byte[] classFile(Class<?> type) {
        String name = type.getSimpleName() + ".class";
        try (InputStream in = type.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the class file " + name + " is not on the class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the class file " + name, e);
        }
    }
}
