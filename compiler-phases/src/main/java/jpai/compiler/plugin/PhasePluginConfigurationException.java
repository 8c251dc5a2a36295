package jpai.compiler.plugin;

/**
 * The phase plugins cannot be set up as configured: a class named in {@code -Djpai.phases} or in a
 * {@code META-INF/services/jpai.compiler.plugin.PhasePlugin} file cannot be loaded or instantiated,
 * or is not a phase. The message is one sentence naming the class and where it was named.
 */
public final class PhasePluginConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PhasePluginConfigurationException(String message) {
        super(message);
    }

    public PhasePluginConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
