package jpai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import jpai.runtime.memory.PArrayStorage;

/**
 * What a user sees: the public types of the {@code jpai} package and every public or protected
 * member of them name only API types (the {@code jpai} package itself) and JDK types, never a
 * runtime type ({@code jpai.runtime.*}), JOCL or Graal. The types are found by listing the package
 * where {@code AF} was loaded from (the classes directory or the jar), so a new public class is
 * checked without editing this test; the list itself is pinned so that a new API type is a
 * decision, not an accident.
 */
class ApiSurfaceTest {

    /** The API as documented in README.md and docs/api-surface.md. */
    private static final Set<String> API_TYPES = Set.of(
            "AF", "Accelerate", "ApplyProfile", "ArrayFunction", "DataType", "Devices", "ElementType", "Executor",
            "FallbackException", "PArray", "PArray$WriteScope", "Parallel", "Reduce", "TriFunction",
            "Tuple", "Tuple2", "Tuple3", "Tuple4", "Tuple5", "Tuple6", "Tuple7", "Tuple8", "TupleType");

    @Test
    void thePublicTypesOfTheApiPackageAreTheDocumentedOnes() {
        Set<String> found = new TreeSet<>();
        for (Class<?> type : publicTypesOfApiPackage()) {
            found.add(type.getName().substring("jpai.".length()));
        }
        assertEquals(new TreeSet<>(API_TYPES), found,
                "the jpai package's public types changed: update README.md, docs/api-surface.md and this list");
    }

    @Test
    void publicSignaturesOfTheApiNameOnlyApiAndJdkTypes() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : publicTypesOfApiPackage()) {
            leaks.addAll(leaksOf(type));
        }
        assertTrue(leaks.isEmpty(), "runtime types in the public API:\n  " + String.join("\n  ", leaks));
    }

    /** The check itself finds a leak: a type shaped like the old {@code PArray.buffer(int)}. */
    @Test
    void theCheckFindsARuntimeTypeInAPublicSignature() {
        List<String> leaks = leaksOf(LeakingExample.class);
        assertEquals(3, leaks.size(), leaks.toString());
        assertTrue(leaks.stream().anyMatch(leak -> leak.contains("buffer") && leak.contains("jpai.runtime.memory.ComponentBuffer")), leaks.toString());
        assertTrue(leaks.stream().anyMatch(leak -> leak.contains("profiles") && leak.contains("jpai.runtime.profile.Profiler")), leaks.toString());
        assertTrue(leaks.stream().anyMatch(leak -> leak.contains("storage") && leak.contains("PArrayStorage")), leaks.toString());
    }

    /** The runtime reaches an array's storage through the bridge, which PArray installs exactly once. */
    @Test
    void theRuntimeReachesStorageThroughTheBridgeOnly() {
        try (PArray<Integer> array = PArray.of(1, 2, 3); PArray<Tuple2<Integer, Integer>> grid = PArray.range(2, 3)) {
            assertEquals(3 * 4L, PArrayStorage.buffer(array, 0).byteSize());
            assertEquals(null, PArrayStorage.rangeExtents(array));
            assertArrayEquals(new int[] {2, 3}, PArrayStorage.rangeExtents(grid));
            PArrayStorage.Access impostor = new PArrayStorage.Access() {
                @Override
                public jpai.runtime.memory.ComponentBuffer buffer(PArray<?> a, int component) {
                    throw new AssertionError("never installed");
                }

                @Override
                public int[] rangeExtents(PArray<?> a) {
                    throw new AssertionError("never installed");
                }

                @Override
                public PArray<?> allocateUninitialized(jpai.DataType type, long length, jpai.runtime.memory.HostMemory memory) {
                    throw new AssertionError("never installed");
                }
            };
            assertThrows(IllegalStateException.class, () -> PArrayStorage.install(impostor), "a second accessor must not replace PArray's");
            assertEquals(3 * 4L, PArrayStorage.buffer(array, 0).byteSize());
            long plainBlocks = jpai.runtime.memory.PlainHostMemory.liveAllocations();
            try (PArray<?> plain = PArrayStorage.allocateUninitializedPlain(ElementType.FLOAT, 5)) {
                assertEquals(5, plain.length());
                assertEquals(ElementType.FLOAT, plain.type());
                assertEquals(plainBlocks + 1, jpai.runtime.memory.PlainHostMemory.liveAllocations(), "plain memory, whatever the runtime installed");
            }
        }
    }

    @SuppressWarnings("unused")
    public static final class LeakingExample {
        public jpai.runtime.memory.ComponentBuffer buffer(int index) {
            return null;
        }

        public List<? extends jpai.runtime.profile.Profiler> profiles() {
            return List.of();
        }

        public PArrayStorage.Access storage;

        public int fine(PArray<Tuple2<Float, Integer>> array, java.util.function.Function<Float, Float> f) {
            return 0;
        }

        void packagePrivateIsNotApi(jpai.runtime.memory.ComponentBuffer buffer) {
        }
    }

    private static List<String> leaksOf(Class<?> type) {
        List<String> leaks = new ArrayList<>();
        String where = type.getName();
        check(where + " extends", type.getGenericSuperclass(), leaks);
        for (Type implemented : type.getGenericInterfaces()) {
            check(where + " implements", implemented, leaks);
        }
        for (TypeVariable<?> variable : type.getTypeParameters()) {
            check(where + " type parameter", variable, leaks);
        }
        for (Field field : type.getDeclaredFields()) {
            if (visible(field.getModifiers())) {
                check(where + "." + field.getName(), field.getGenericType(), leaks);
            }
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (visible(constructor.getModifiers())) {
                checkExecutable(where + ".<init>", constructor, leaks);
            }
        }
        for (Method method : type.getDeclaredMethods()) {
            if (visible(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()) {
                checkExecutable(where + "." + method.getName(), method, leaks);
            }
        }
        checkAnnotations(where, type, leaks);
        return leaks;
    }

    private static void checkExecutable(String where, Executable executable, List<String> leaks) {
        if (executable instanceof Method method) {
            check(where + " returns", method.getGenericReturnType(), leaks);
        }
        for (Type parameter : executable.getGenericParameterTypes()) {
            check(where + " parameter", parameter, leaks);
        }
        for (Type thrown : executable.getGenericExceptionTypes()) {
            check(where + " throws", thrown, leaks);
        }
        for (TypeVariable<?> variable : executable.getTypeParameters()) {
            check(where + " type parameter", variable, leaks);
        }
        checkAnnotations(where, executable, leaks);
    }

    private static void checkAnnotations(String where, AnnotatedElement element, List<String> leaks) {
        for (var annotation : element.getAnnotations()) {
            check(where + " annotation", annotation.annotationType(), leaks);
        }
    }

    private static void check(String where, Type type, List<String> leaks) {
        check(where, type, leaks, new java.util.HashSet<>());
    }

    private static void check(String where, Type type, List<String> leaks, Set<Type> seen) {
        if (type == null || !seen.add(type)) {
            return;
        }
        switch (type) {
            case Class<?> c -> {
                Class<?> element = c;
                while (element.isArray()) {
                    element = element.getComponentType();
                }
                if (!element.isPrimitive() && !isApiOrJdk(element)) {
                    leaks.add(where + ": " + element.getName());
                }
            }
            case ParameterizedType p -> {
                check(where, p.getRawType(), leaks, seen);
                check(where, p.getOwnerType(), leaks, seen);
                for (Type argument : p.getActualTypeArguments()) {
                    check(where, argument, leaks, seen);
                }
            }
            case GenericArrayType a -> check(where, a.getGenericComponentType(), leaks, seen);
            case WildcardType w -> {
                for (Type bound : w.getUpperBounds()) {
                    check(where, bound, leaks, seen);
                }
                for (Type bound : w.getLowerBounds()) {
                    check(where, bound, leaks, seen);
                }
            }
            case TypeVariable<?> v -> {
                for (Type bound : v.getBounds()) {
                    check(where, bound, leaks, seen);
                }
            }
            default -> leaks.add(where + ": unknown kind of type " + type);
        }
    }

    /** The API package itself, or the JDK's java.* packages. */
    private static boolean isApiOrJdk(Class<?> type) {
        return type.getPackageName().equals("jpai") || type.getName().startsWith("java.");
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    /** The public top-level and public nested types of package {@code jpai}, as shipped in the runtime's classes. */
    private static List<Class<?>> publicTypesOfApiPackage() {
        List<String> classFiles = classFilesOfApiPackage();
        List<Class<?>> types = new ArrayList<>();
        for (String file : classFiles) {
            String binaryName = "jpai." + file.substring(0, file.length() - ".class".length());
            if (binaryName.equals("jpai.package-info")) {
                continue;
            }
            Class<?> type;
            try {
                type = Class.forName(binaryName, false, AF.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError(binaryName + " is listed but does not load", e);
            }
            if (isPublicAllTheWayOut(type) && !type.isAnonymousClass() && !type.isLocalClass() && !type.isSynthetic()) {
                types.add(type);
            }
        }
        assertTrue(types.contains(AF.class) && types.contains(PArray.class), "the scan found " + types);
        return types;
    }

    private static boolean isPublicAllTheWayOut(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
            if (!Modifier.isPublic(c.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    /** File names (like {@code PArray$WriteScope.class}) of the classes of {@code jpai} where AF.class came from. */
    private static List<String> classFilesOfApiPackage() {
        Path location;
        try {
            location = Path.of(AF.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
        try {
            if (Files.isDirectory(location)) {
                try (Stream<Path> files = Files.list(location.resolve("jpai"))) {
                    return files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".class")).sorted().toList();
                }
            }
            try (JarFile jar = new JarFile(location.toFile())) {
                return jar.stream().map(entry -> entry.getName())
                        .filter(name -> name.startsWith("jpai/") && name.indexOf('/', "jpai/".length()) < 0 && name.endsWith(".class"))
                        .map(name -> name.substring("jpai/".length())).sorted().toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
