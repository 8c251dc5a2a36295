package jpai.compiler;

import java.util.HashSet;
import java.util.Set;

import jdk.vm.ci.meta.ConstantReflectionProvider;
import jdk.vm.ci.meta.JavaConstant;
import jdk.vm.ci.meta.MetaAccessProvider;
import jdk.vm.ci.meta.ResolvedJavaField;
import jdk.vm.ci.meta.ResolvedJavaType;

/**
 * The JDK's own constant tables that kernels may hold as program-scope {@code __constant} arrays:
 * the private static final arrays of FdLibm ({@code StrictMath}'s implementation), which nothing
 * ever writes. Any other array the compiler sees as a constant (a user's {@code static final int[]},
 * also when JDK code such as {@code Arrays.binarySearch} reads it) may be written after the kernel
 * was compiled, so it is never frozen into one. Known by identity: the array objects themselves,
 * read from the fields once.
 */
public final class ImmutableJdkTables {

    private static volatile Set<JavaConstant> tables;

    private ImmutableJdkTables() {
    }

    /** Whether {@code array} is one of the JDK's immutable tables. */
    public static boolean contains(JavaConstant array) {
        Set<JavaConstant> known = tables;
        if (known == null) {
            known = collect(GraalAccess.get().providers().getMetaAccess(), GraalAccess.get().providers().getConstantReflection());
            tables = known;
        }
        return known.contains(array);
    }

    private static Set<JavaConstant> collect(MetaAccessProvider metaAccess, ConstantReflectionProvider reflection) {
        Set<JavaConstant> found = new HashSet<>();
        try {
            Class<?> fdlibm = Class.forName("java.lang.FdLibm", false, null);
            addArrays(metaAccess.lookupJavaType(fdlibm), reflection, found);
            for (Class<?> nested : fdlibm.getDeclaredClasses()) {
                addArrays(metaAccess.lookupJavaType(nested), reflection, found);
            }
        } catch (ClassNotFoundException e) {
            // another JDK: no table is known immutable, every constant array stays in Java
        }
        return Set.copyOf(found);
    }

    private static void addArrays(ResolvedJavaType type, ConstantReflectionProvider reflection, Set<JavaConstant> found) {
        type.initialize();
        for (ResolvedJavaField field : type.getStaticFields()) {
            if (field.isFinal() && field.getType().getComponentType() != null) {
                JavaConstant value = reflection.readFieldValue(field, null);
                if (value != null && !value.isNull()) {
                    found.add(value);
                }
            }
        }
    }
}
