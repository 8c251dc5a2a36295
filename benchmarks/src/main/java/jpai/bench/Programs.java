package jpai.bench;

import java.util.List;

/** The suite's programs, in the order they run and are reported. */
public final class Programs {

    private Programs() {
    }

    public static List<Program<?>> all() {
        return List.of(new Saxpy(), new BlackScholes(), new NBody(), new MonteCarlo(), new KMeans(), new Dft(), new Mandelbrot(), new Hilbert(),
                new SpectralNorm(), new MatMul());
    }

    public static List<String> names() {
        return all().stream().map(Program::name).toList();
    }
}
