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
 * the private static final arrays of FdLibm ({@code StrictMath}'s implementation) and of the
 * {@code CharacterData} classes ({@code Character}'s Unicode tables), which nothing ever writes
 * after their class is initialised. Any other array the compiler sees as a constant (a user's {@code static final int[]},
 * also when JDK code such as {@code Arrays.binarySearch} reads it) may be written after the kernel
 * was compiled, so it is never frozen into one. Known by identity: the array objects themselves,
 * read from the fields once.
 */
public final class ImmutableJdkTables {

    /** {@code CharacterData.of} picks one of these by the code point's plane. */
    private static final String[] CHARACTER_DATA = {"java.lang.CharacterDataLatin1", "java.lang.CharacterData00", "java.lang.CharacterData01", "java.lang.CharacterData02",
                    "java.lang.CharacterData03", "java.lang.CharacterData0E", "java.lang.CharacterDataPrivateUse", "java.lang.CharacterDataUndefined"};

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
        for (String characterData : CHARACTER_DATA) {
            try {
                addArrays(metaAccess.lookupJavaType(Class.forName(characterData, false, null)), reflection, found);
            } catch (ClassNotFoundException e) {
                // another JDK's set of table classes: the calls that reach one stay in Java
            }
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
