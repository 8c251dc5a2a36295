package jpai.bench;

import java.time.Instant;

/**
 * Prints how long after its start the JVM reached {@code main}: from the wall-clock time, in
 * nanoseconds since the epoch, given as the first argument (the script that starts the JVM takes
 * it just before), and, where the JVM has {@code java.management}, its own uptime. Started with and
 * without {@code -javaagent:jpai-agent.jar}, the difference is the agent's start-up cost (its
 * {@code premain}: the exports it adds and the transformer it installs); {@code bin/gpu-check startup}
 * runs it ten times each way and prints the medians.
 */
public final class StartupTime {

    private StartupTime() {
    }

    public static void main(String[] args) {
        Instant now = Instant.now();
        long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        String uptime;
        try {
            uptime = String.valueOf(java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime());
        } catch (LinkageError e) {
            uptime = "n/a";
        }
        long launched = args.length > 0 ? Long.parseLong(args[0]) : nowNanos;
        System.out.printf("main reached after %.1f ms (JVM uptime %s ms, agent %s)%n", (nowNanos - launched) / 1e6, uptime,
                        Boolean.getBoolean("jpai.agent.installed") ? "installed" : "absent");
    }
}
