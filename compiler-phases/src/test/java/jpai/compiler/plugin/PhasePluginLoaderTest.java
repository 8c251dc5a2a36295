package jpai.compiler.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.Phase;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jdk.graal.compiler.phases.tiers.LowTierContext;

/**
 * Where plugins come from ({@code -Djpai.phases} and service files) and the one-line errors for
 * what cannot be set up, each naming the class and what named it.
 */
class PhasePluginLoaderTest {

    private static final ClassLoader LOADER = PhasePluginLoaderTest.class.getClassLoader();

    /** A phase with nothing to do. */
    public static final class QuietPhase extends Phase {
        @Override
        public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
            return ALWAYS_APPLICABLE;
        }

        @Override
        protected void run(StructuredGraph graph) {
        }
    }

    /** {@link QuietPhase} as a plugin, after parsing. */
    public static final class QuietPlugin implements PhasePlugin {
        @Override
        public PipelinePoint point() {
            return PipelinePoint.AFTER_PARSING;
        }

        @Override
        public BasePhase<? super HighTierContext> newPhase() {
            return new QuietPhase();
        }
    }

    /** A phase of the low tier, which plugins cannot have. */
    public static final class LowTierPhase extends BasePhase<LowTierContext> {
        @Override
        public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
            return ALWAYS_APPLICABLE;
        }

        @Override
        protected void run(StructuredGraph graph, LowTierContext context) {
        }
    }

    /** A phase without a constructor that takes no arguments. */
    public static final class PhaseWithArgument extends Phase {
        public PhaseWithArgument(int unused) {
        }

        @Override
        public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
            return ALWAYS_APPLICABLE;
        }

        @Override
        protected void run(StructuredGraph graph) {
        }
    }

    /** A phase whose constructor fails. */
    public static final class FailingConstructorPhase extends Phase {
        public FailingConstructorPhase() {
            throw new IllegalStateException("no configuration file");
        }

        @Override
        public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
            return ALWAYS_APPLICABLE;
        }

        @Override
        protected void run(StructuredGraph graph) {
        }
    }

    private static String error(String property) {
        PhasePluginConfigurationException e = assertThrows(PhasePluginConfigurationException.class, () -> PhasePluginLoader.load(LOADER, property));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        return e.getMessage();
    }

    @Test
    void thePropertyNamesPhasesWithTheirPointsAndPluginsWithout() {
        PhasePlugins plugins = PhasePluginLoader.load(LOADER, " after-kernel-phases:" + QuietPhase.class.getName() + " , " + QuietPlugin.class.getName() + ",after-high-tier:"
                        + QuietPhase.class.getName());
        List<PhasePlugin> list = plugins.plugins();
        assertEquals(3, list.size());
        assertEquals(QuietPhase.class.getName(), list.get(0).name());
        assertEquals(PipelinePoint.AFTER_KERNEL_PHASES, list.get(0).point());
        assertTrue(list.get(0).newPhase() instanceof QuietPhase);
        assertTrue(list.get(1) instanceof QuietPlugin);
        assertEquals(PipelinePoint.AFTER_HIGH_TIER, list.get(2).point());
        assertEquals(List.of(list.get(1)), plugins.at(PipelinePoint.AFTER_PARSING));
        assertSame(PhasePlugins.NONE, PhasePluginLoader.load(LOADER, ""));
        assertSame(PhasePlugins.NONE, PhasePluginLoader.load(LOADER, " , "));
    }

    @Test
    void whatCannotBeSetUpIsOneLineNamingTheClassAndTheProperty() {
        String missing = error("after-high-tier:com.example.NoSuchPhase");
        assertEquals("the phase plugin class com.example.NoSuchPhase named in -Djpai.phases (entry 'after-high-tier:com.example.NoSuchPhase') cannot be loaded: it is not on the class path",
                        missing);
        assertEquals("-Djpai.phases (entry 'before-lunch:" + QuietPhase.class.getName() + "') names no point of the pipeline: 'before-lunch'; the points are after-parsing, after-high-tier, after-kernel-phases",
                        error("before-lunch:" + QuietPhase.class.getName()));
        assertTrue(error("after-parsing:java.lang.String").contains("the class java.lang.String named in -Djpai.phases (entry 'after-parsing:java.lang.String') is neither a Graal phase"));
        assertTrue(error(QuietPhase.class.getName()).contains("needs a point: write after-high-tier:" + QuietPhase.class.getName()));
        assertTrue(error("after-high-tier:" + QuietPlugin.class.getName()).contains("is a PhasePlugin, which says its own point (after-parsing): name it without 'after-high-tier:'"));
        assertTrue(error("after-high-tier:" + LowTierPhase.class.getName()).contains("is a phase of LowTierContext, but plugins run with the high tier's HighTierContext"));
        assertTrue(error("after-high-tier:" + PhaseWithArgument.class.getName()).contains(PhaseWithArgument.class.getName() + " named in -Djpai.phases"));
        assertTrue(error("after-high-tier:" + PhaseWithArgument.class.getName()).endsWith("cannot be instantiated: it has no public constructor without arguments"));
        assertTrue(error("after-high-tier:" + FailingConstructorPhase.class.getName()).endsWith("cannot be instantiated: its constructor threw java.lang.IllegalStateException: no configuration file"));
    }

    private static ClassLoader withServiceFile(Path directory, String... lines) throws IOException {
        Path file = directory.resolve(PhasePluginLoader.SERVICE_FILE);
        Files.createDirectories(file.getParent());
        Files.write(file, List.of(lines));
        return new URLClassLoader(new URL[] {directory.toUri().toURL()}, LOADER);
    }

    @Test
    void serviceProvidersOfTheClassPathRunBeforeThePropertysPlugins(@TempDir Path directory) throws IOException {
        ClassLoader loader = withServiceFile(directory, "# research phases", QuietPlugin.class.getName());
        PhasePlugins plugins = PhasePluginLoader.load(loader, "after-kernel-phases:" + QuietPhase.class.getName());
        assertEquals(2, plugins.plugins().size());
        assertTrue(plugins.plugins().get(0) instanceof QuietPlugin);
        assertEquals(QuietPhase.class.getName(), plugins.plugins().get(1).name());
    }

    @Test
    void aServiceFileNamingAMissingClassIsOneLineNamingTheClassAndTheFile(@TempDir Path directory) throws IOException {
        ClassLoader loader = withServiceFile(directory, "com.example.GoneAway");
        PhasePluginConfigurationException e = assertThrows(PhasePluginConfigurationException.class, () -> PhasePluginLoader.load(loader, ""));
        String file = directory.resolve(PhasePluginLoader.SERVICE_FILE).toUri().toURL().toString();
        assertTrue(e.getMessage().startsWith("the phase plugin com.example.GoneAway listed in " + file + " cannot be loaded: "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void theConfiguredPluginsFollowThePropertyAndAreReusedWhileItStaysTheSame() {
        String previous = System.getProperty(PhasePluginLoader.PROPERTY);
        try {
            System.setProperty(PhasePluginLoader.PROPERTY, "after-parsing:" + QuietPhase.class.getName());
            PhasePlugins first = PhasePlugins.configured();
            assertEquals(QuietPhase.class.getName(), first.plugins().get(0).name());
            assertSame(first, PhasePlugins.configured(), "no loading again while nothing changed");
            System.setProperty(PhasePluginLoader.PROPERTY, "after-parsing:com.example.Missing");
            assertThrows(PhasePluginConfigurationException.class, PhasePlugins::configured);
            assertThrows(PhasePluginConfigurationException.class, PhasePlugins::configured, "an error stays an error");
            System.clearProperty(PhasePluginLoader.PROPERTY);
            assertSame(PhasePlugins.NONE, PhasePlugins.configured());
        } finally {
            if (previous == null) {
                System.clearProperty(PhasePluginLoader.PROPERTY);
            } else {
                System.setProperty(PhasePluginLoader.PROPERTY, previous);
            }
        }
    }
}
