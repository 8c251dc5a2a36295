package jpai.compiler.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.tiers.HighTierContext;

/**
 * Finds the configured phase plugins: first the {@link PhasePlugin} service providers of the class
 * path ({@link ServiceLoader}: a jar's {@code META-INF/services/jpai.compiler.plugin.PhasePlugin}
 * lists its implementations), in the class path's order; then the entries of
 * {@code -Djpai.phases}, in the property's order. The property is a comma-separated list of
 * entries, each either
 * <ul>
 * <li>{@code point:class}: a Graal phase class ({@code BasePhase} of {@code HighTierContext} or of a
 * supertype, such as {@code Phase}) with a public no-argument constructor, run at the
 * {@link PipelinePoint} whose id is {@code point} ({@code after-parsing}, {@code after-high-tier},
 * {@code after-kernel-phases}), or</li>
 * <li>{@code class}: a {@link PhasePlugin} implementation, which says its own point.</li>
 * </ul>
 *
 * <p>What cannot be set up is a {@link PhasePluginConfigurationException} whose one-line message
 * names the class and the property or the service file that named it.
 */
public final class PhasePluginLoader {

    /** {@code -Djpai.phases=...}: phase plugins for quick experiments. */
    public static final String PROPERTY = "jpai.phases";
    /** The service file that lists a jar's {@link PhasePlugin}s. */
    public static final String SERVICE_FILE = "META-INF/services/" + PhasePlugin.class.getName();

    /** The last configuration looked up; the property is read at each lookup, so that tests may change it. */
    private record Configuration(String property, ClassLoader loader, PhasePlugins plugins, String error) {
    }

    private static volatile Configuration last;

    private PhasePluginLoader() {
    }

    /**
     * The plugins of this JVM: the service providers of the current thread's context class loader
     * and {@code -Djpai.phases}. Loaded again only when the property or the loader changed since the
     * last call, which makes the usual call a property read and two comparisons.
     *
     * @throws PhasePluginConfigurationException when a named class cannot be set up
     */
    public static PhasePlugins configured() {
        String property = System.getProperty(PROPERTY, "");
        ClassLoader loader = contextLoader();
        Configuration known = last;
        if (known == null || !known.property().equals(property) || known.loader() != loader) {
            try {
                known = new Configuration(property, loader, load(loader, property), null);
            } catch (PhasePluginConfigurationException e) {
                known = new Configuration(property, loader, null, e.getMessage());
            }
            last = known;
        }
        if (known.error() != null) {
            throw new PhasePluginConfigurationException(known.error());
        }
        return known.plugins();
    }

    /**
     * The service providers {@code loader} sees, then the plugins {@code property} names (a value of
     * {@code -Djpai.phases}; empty for none), loaded with {@code loader}.
     *
     * @throws PhasePluginConfigurationException when a named class cannot be set up
     */
    public static PhasePlugins load(ClassLoader loader, String property) {
        List<PhasePlugin> plugins = new ArrayList<>(serviceProviders(loader));
        for (String entry : property.split(",")) {
            if (!entry.isBlank()) {
                plugins.add(fromPropertyEntry(loader, entry.strip()));
            }
        }
        return PhasePlugins.of(plugins);
    }

    private static ClassLoader contextLoader() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return loader != null ? loader : PhasePluginLoader.class.getClassLoader();
    }

    private static List<PhasePlugin> serviceProviders(ClassLoader loader) {
        List<PhasePlugin> plugins = new ArrayList<>();
        Iterator<PhasePlugin> providers = ServiceLoader.load(PhasePlugin.class, loader).iterator();
        while (true) {
            PhasePlugin plugin;
            try {
                if (!providers.hasNext()) {
                    return plugins;
                }
                plugin = providers.next();
            } catch (ServiceConfigurationError e) {
                String provider = providerNamed(e);
                throw new PhasePluginConfigurationException("the phase plugin " + (provider != null ? provider + " " : "") + "listed in " + serviceFilesListing(loader, provider)
                                + " cannot be loaded: " + reasonOf(e), e);
            }
            plugins.add(checked(plugin, serviceFilesListing(loader, plugin.getClass().getName())));
        }
    }

    private static final Pattern PROVIDER = Pattern.compile("Provider (\\S+)");

    /** The class a {@code ServiceLoader} error is about ("Provider a.B not found"), or null. */
    private static String providerNamed(ServiceConfigurationError e) {
        Matcher matcher = PROVIDER.matcher(String.valueOf(e.getMessage()));
        return matcher.find() ? matcher.group(1) : null;
    }

    /** {@code ServiceLoader}'s message without its "jpai.compiler.plugin.PhasePlugin: " prefix, and its cause. */
    private static String reasonOf(ServiceConfigurationError e) {
        String message = String.valueOf(e.getMessage());
        String prefix = PhasePlugin.class.getName() + ": ";
        if (message.startsWith(prefix)) {
            message = message.substring(prefix.length());
        }
        Throwable cause = e.getCause();
        if (cause instanceof InvocationTargetException target && target.getCause() != null) {
            cause = target.getCause();
        }
        return cause == null ? message : message + " (" + cause + ")";
    }

    /** The service files of {@code loader} that name {@code provider} (all of them when none does or it is null). */
    private static String serviceFilesListing(ClassLoader loader, String provider) {
        List<String> all = new ArrayList<>();
        List<String> naming = new ArrayList<>();
        try {
            for (URL file : Collections.list(loader.getResources(SERVICE_FILE))) {
                all.add(file.toString());
                if (provider != null && lines(file).contains(provider)) {
                    naming.add(file.toString());
                }
            }
        } catch (IOException e) {
            return SERVICE_FILE;
        }
        List<String> files = naming.isEmpty() ? all : naming;
        return files.isEmpty() ? SERVICE_FILE : String.join(" and ", files);
    }

    /** The class names a service file lists (comments and blanks left out). */
    private static List<String> lines(URL file) throws IOException {
        try (InputStream in = file.openStream()) {
            List<String> names = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                int comment = line.indexOf('#');
                String name = (comment >= 0 ? line.substring(0, comment) : line).strip();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
            return names;
        }
    }

    private static PhasePlugin fromPropertyEntry(ClassLoader loader, String entry) {
        String where = "-D" + PROPERTY + " (entry '" + entry + "')";
        int colon = entry.indexOf(':');
        PipelinePoint point = null;
        String className = entry;
        if (colon >= 0) {
            String id = entry.substring(0, colon).strip();
            point = PipelinePoint.byId(id);
            if (point == null) {
                throw new PhasePluginConfigurationException(where + " names no point of the pipeline: '" + id + "'; the points are " + PipelinePoint.ids());
            }
            className = entry.substring(colon + 1).strip();
        }
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new PhasePluginConfigurationException("the phase plugin class " + className + " named in " + where + " cannot be loaded: "
                            + (e instanceof ClassNotFoundException ? "it is not on the class path" : e.toString()), e);
        }
        if (PhasePlugin.class.isAssignableFrom(type)) {
            PhasePlugin plugin = checked((PhasePlugin) instantiate(publicNoArgumentConstructor(type, where), where), where);
            if (point != null) {
                throw new PhasePluginConfigurationException("the phase plugin " + className + " named in " + where + " is a PhasePlugin, which says its own point ("
                                + plugin.point().id() + "): name it without '" + point.id() + ":'");
            }
            return plugin;
        }
        if (!BasePhase.class.isAssignableFrom(type)) {
            throw new PhasePluginConfigurationException("the class " + className + " named in " + where + " is neither a Graal phase (a BasePhase) nor a "
                            + PhasePlugin.class.getName());
        }
        Class<?> context = contextOf(type);
        if (context != null && !context.isAssignableFrom(HighTierContext.class)) {
            throw new PhasePluginConfigurationException("the phase " + className + " named in " + where + " is a phase of " + context.getSimpleName()
                            + ", but plugins run with the high tier's HighTierContext");
        }
        if (point == null) {
            throw new PhasePluginConfigurationException("the phase " + className + " named in " + where + " needs a point: write after-high-tier:" + className
                            + " (the points are " + PipelinePoint.ids() + ")");
        }
        @SuppressWarnings("unchecked")
        Constructor<? extends BasePhase<? super HighTierContext>> constructor = (Constructor<? extends BasePhase<? super HighTierContext>>) publicNoArgumentConstructor(type, where);
        instantiate(constructor, where); // fails now, once, rather than at each compilation
        return new PhaseClassPlugin(point, constructor);
    }

    /** {@code plugin}, once its name and point are known to be there ({@code where}: what named it, for the message). */
    private static PhasePlugin checked(PhasePlugin plugin, String where) {
        String className = plugin.getClass().getName();
        String name;
        PipelinePoint point;
        try {
            name = plugin.name();
            point = plugin.point();
        } catch (RuntimeException e) {
            throw new PhasePluginConfigurationException("the phase plugin " + className + " named in " + where + " cannot say its name and point: " + e, e);
        }
        if (name == null || name.isBlank() || point == null) {
            throw new PhasePluginConfigurationException("the phase plugin " + className + " named in " + where + " has no " + (point == null ? "point (its point() returned null)" : "name"));
        }
        return plugin;
    }

    /** The context type argument of {@code BasePhase} that {@code type} extends, or null when it is not a class. */
    private static Class<?> contextOf(Class<?> type) {
        for (Class<?> c = type; c != null && c != BasePhase.class; c = c.getSuperclass()) {
            Type parent = c.getGenericSuperclass();
            if (parent instanceof ParameterizedType parameterized && parameterized.getRawType() == BasePhase.class) {
                Type argument = parameterized.getActualTypeArguments()[0];
                if (argument instanceof Class<?> context) {
                    return context;
                }
                if (argument instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> context) {
                    return context;
                }
                return null;
            }
        }
        return null;
    }

    private static Constructor<?> publicNoArgumentConstructor(Class<?> type, String where) {
        if (Modifier.isAbstract(type.getModifiers()) || !Modifier.isPublic(type.getModifiers())) {
            throw new PhasePluginConfigurationException("the phase plugin " + type.getName() + " named in " + where + " cannot be instantiated: it must be a public, non-abstract class");
        }
        try {
            return type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new PhasePluginConfigurationException("the phase plugin " + type.getName() + " named in " + where + " cannot be instantiated: it has no public constructor without arguments", e);
        }
    }

    private static Object instantiate(Constructor<?> constructor, String where) {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new PhasePluginConfigurationException("the phase plugin " + constructor.getDeclaringClass().getName() + " named in " + where + " cannot be instantiated: its constructor threw "
                            + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new PhasePluginConfigurationException("the phase plugin " + constructor.getDeclaringClass().getName() + " named in " + where + " cannot be instantiated: " + e, e);
        }
    }
}
