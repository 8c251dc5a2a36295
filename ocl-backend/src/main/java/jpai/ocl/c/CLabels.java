package jpai.ocl.c;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jpai.ocl.c.CStmt.Block;
import jpai.ocl.c.CStmt.Case;
import jpai.ocl.c.CStmt.For;
import jpai.ocl.c.CStmt.Goto;
import jpai.ocl.c.CStmt.If;
import jpai.ocl.c.CStmt.Label;
import jpai.ocl.c.CStmt.Switch;
import jpai.ocl.c.CStmt.While;

/**
 * Drops the labels no {@code goto} names. A structurer may place a label before it knows whether any
 * jump will need it (a jump can be emitted after its target's code); this removes the unneeded ones on
 * the finished tree.
 */
public final class CLabels {

    private CLabels() {
    }

    /** {@code body} without the labels that no {@code goto} in it names. */
    public static Block withoutUnused(Block body) {
        Set<String> targets = new HashSet<>();
        collectGotos(body, targets);
        return keep(body, targets);
    }

    private static void collectGotos(CStmt statement, Set<String> targets) {
        switch (statement) {
            case Goto g -> targets.add(g.label());
            case Block block -> block.statements().forEach(s -> collectGotos(s, targets));
            case If branch -> {
                collectGotos(branch.ifTrue(), targets);
                collectGotos(branch.ifFalse(), targets);
            }
            case While loop -> collectGotos(loop.body(), targets);
            case For loop -> collectGotos(loop.body(), targets);
            case Switch s -> s.cases().forEach(arm -> collectGotos(arm.body(), targets));
            default -> {
            }
        }
    }

    private static Block keep(Block block, Set<String> targets) {
        List<CStmt> kept = new ArrayList<>();
        for (CStmt statement : block.statements()) {
            if (!(statement instanceof Label label) || targets.contains(label.label())) {
                kept.add(keepWithin(statement, targets));
            }
        }
        return new Block(kept);
    }

    private static CStmt keepWithin(CStmt statement, Set<String> targets) {
        return switch (statement) {
            case Block block -> keep(block, targets);
            case If branch -> new If(branch.condition(), keep(branch.ifTrue(), targets), keep(branch.ifFalse(), targets));
            case While loop -> new While(loop.condition(), keep(loop.body(), targets));
            case For loop -> new For(loop.initializer(), loop.condition(), loop.update(), keep(loop.body(), targets));
            case Switch s -> new Switch(s.selector(), s.cases().stream()
                    .map(arm -> new Case(arm.values(), arm.isDefault(), keep(arm.body(), targets))).toList());
            default -> statement;
        };
    }
}
