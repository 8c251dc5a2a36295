package jpai.ocl.c;

import jpai.ocl.c.CStmt.Block;
import jpai.ocl.c.CStmt.Break;
import jpai.ocl.c.CStmt.Case;
import jpai.ocl.c.CStmt.Continue;
import jpai.ocl.c.CStmt.For;
import jpai.ocl.c.CStmt.Goto;
import jpai.ocl.c.CStmt.If;
import jpai.ocl.c.CStmt.Label;
import jpai.ocl.c.CStmt.Return;
import jpai.ocl.c.CStmt.Switch;
import jpai.ocl.c.CStmt.While;

/**
 * Control-flow facts read off the tree (not off printed text): whether a statement can complete
 * normally, so that a generator knows whether code after it is reachable and whether an arm falls
 * through. The answer is conservative: "true" where it cannot tell.
 */
public final class CFlow {

    private CFlow() {
    }

    /** True if control can leave {@code statement} at its end (rather than only by a jump or not at all). */
    public static boolean canCompleteNormally(CStmt statement) {
        return switch (statement) {
            case Break _ -> false;
            case Continue _ -> false;
            case Return _ -> false;
            case Goto _ -> false;
            case Block block -> canCompleteNormally(block);
            case If branch -> canCompleteNormally(branch.ifTrue()) || canCompleteNormally(branch.ifFalse());
            case While loop -> !isEndless(loop.condition()) || breaksOut(loop.body());
            case For loop -> !isEndless(loop.condition()) || breaksOut(loop.body());
            case Switch s -> {
                boolean hasDefault = s.cases().stream().anyMatch(Case::isDefault);
                boolean anyBreak = s.cases().stream().anyMatch(arm -> breaksOut(arm.body()));
                boolean lastFallsOff = s.cases().isEmpty() || canCompleteNormally(s.cases().getLast().body());
                yield !hasDefault || anyBreak || lastFallsOff;
            }
            default -> true;
        };
    }

    /** True if control can reach the end of the block; a label makes what follows it reachable again. */
    public static boolean canCompleteNormally(Block block) {
        boolean reachable = true;
        for (CStmt statement : block.statements()) {
            if (statement instanceof Label) {
                reachable = true;
            } else if (reachable) {
                reachable = canCompleteNormally(statement);
            }
        }
        return reachable;
    }

    private static boolean isEndless(CExpr condition) {
        return condition == null || condition instanceof CExpr.Literal literal && literal.text().equals("1");
    }

    /** True if {@code body} holds a {@code break} that leaves the loop or switch whose body it is. */
    private static boolean breaksOut(Block body) {
        for (CStmt statement : body.statements()) {
            boolean breaks = switch (statement) {
                case Break _ -> true;
                case Block block -> breaksOut(block);
                case If branch -> breaksOut(branch.ifTrue()) || breaksOut(branch.ifFalse());
                default -> false; // a break inside a nested loop or switch leaves that one
            };
            if (breaks) {
                return true;
            }
        }
        return false;
    }
}
