package jpai.ocl.codegen;

import java.util.List;
import java.util.Set;
import java.util.function.Function;

import jdk.graal.compiler.core.common.calc.FloatConvert;
import jdk.graal.compiler.core.common.type.FloatStamp;
import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.core.common.type.Stamp;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.lir.gen.ArithmeticLIRGeneratorTool.RoundingMode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.LogicNegationNode;
import jdk.graal.compiler.nodes.calc.CopySignNode;
import jdk.graal.compiler.nodes.calc.FloatNormalizeCompareNode;
import jdk.graal.compiler.nodes.calc.IntegerNormalizeCompareNode;
import jdk.graal.compiler.nodes.calc.SignedFloatingIntegerDivNode;
import jdk.graal.compiler.nodes.calc.SignedFloatingIntegerRemNode;
import jdk.graal.compiler.nodes.calc.FusedMultiplyAddNode;
import jdk.graal.compiler.nodes.calc.MinMaxNode;
import jdk.graal.compiler.nodes.calc.MinNode;
import jdk.graal.compiler.nodes.calc.RoundFloatToIntegerNode;
import jdk.graal.compiler.nodes.calc.RoundNode;
import jdk.graal.compiler.nodes.calc.SignumNode;
import jdk.graal.compiler.nodes.calc.UnsignedMaxNode;
import jdk.graal.compiler.nodes.calc.UnsignedMinNode;
import jdk.graal.compiler.replacements.nodes.BitCountNode;
import jdk.graal.compiler.replacements.nodes.FloatToHalfFloatNode;
import jdk.graal.compiler.replacements.nodes.HalfFloatToFloatNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.UnsignedMulHighNode;
import jdk.graal.compiler.nodes.calc.CompressBitsNode;
import jdk.graal.compiler.nodes.calc.ExpandBitsNode;
import jdk.graal.compiler.nodes.calc.IntegerMulHighNode;
import jdk.graal.compiler.replacements.nodes.CountLeadingZerosNode;
import jdk.graal.compiler.replacements.nodes.CountTrailingZerosNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.AbsNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.AndNode;
import jdk.graal.compiler.nodes.calc.BinaryNode;
import jdk.graal.compiler.nodes.calc.CompareNode;
import jdk.graal.compiler.nodes.calc.ConditionalNode;
import jdk.graal.compiler.nodes.calc.FloatConvertNode;
import jdk.graal.compiler.nodes.calc.FloatDivNode;
import jdk.graal.compiler.nodes.calc.FloatEqualsNode;
import jdk.graal.compiler.nodes.calc.FloatLessThanNode;
import jdk.graal.compiler.nodes.calc.IntegerBelowNode;
import jdk.graal.compiler.nodes.calc.IntegerEqualsNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.IntegerTestNode;
import jdk.graal.compiler.nodes.calc.LeftShiftNode;
import jdk.graal.compiler.nodes.calc.MulNode;
import jdk.graal.compiler.nodes.calc.NarrowNode;
import jdk.graal.compiler.nodes.calc.NegateNode;
import jdk.graal.compiler.nodes.calc.NotNode;
import jdk.graal.compiler.nodes.calc.OrNode;
import jdk.graal.compiler.nodes.calc.ReinterpretNode;
import jdk.graal.compiler.nodes.calc.RemNode;
import jdk.graal.compiler.nodes.calc.RightShiftNode;
import jdk.graal.compiler.nodes.calc.SignExtendNode;
import jdk.graal.compiler.nodes.calc.SqrtNode;
import jdk.graal.compiler.nodes.calc.SubNode;
import jdk.graal.compiler.nodes.calc.UnsignedRightShiftNode;
import jdk.graal.compiler.nodes.calc.XorNode;
import jdk.graal.compiler.nodes.calc.ZeroExtendNode;
import jdk.graal.compiler.core.common.Fields;
import jdk.graal.compiler.nodes.ShortCircuitOrNode;
import jdk.graal.compiler.nodes.calc.FloatTypeTestNode;
import jdk.graal.compiler.replacements.nodes.ReverseBitsNode;
import jdk.graal.compiler.replacements.nodes.ReverseBytesNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.BinaryIntegerExactArithmeticSplitNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerAddExactOverflowNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerAddExactSplitNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerExactArithmeticSplitNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerExactOverflowNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerMulExactOverflowNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerMulExactSplitNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerNegExactOverflowNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerNegExactSplitNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerSubExactOverflowNode;
import jdk.graal.compiler.replacements.nodes.arithmetic.IntegerSubExactSplitNode;
import jdk.graal.compiler.replacements.nodes.BinaryMathIntrinsicNode;
import jdk.graal.compiler.replacements.nodes.UnaryMathIntrinsicNode;
import jpai.compiler.JavaConstructs;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.nodes.MathCallNode;
import jpai.ocl.ExactFloatDivSqrt;
import jpai.ocl.OpenCLTypes;

/**
 * Turns one value node into an OpenCL C expression over the names of its inputs, with Java's
 * meaning: integer arithmetic wraps (computed on unsigned types, whose overflow C defines, and
 * reinterpreted with {@code as_int}/{@code as_long} (defined: the same bits), never by a conversion C
 * leaves to the implementation), shift counts are masked, float-to-integer conversions saturate and
 * send NaN to 0, comparisons treat NaN as Java does.
 *
 * <p>Knows nothing of control flow or variables: {@code operand} names an input.
 */
final class ExpressionEmitter {

    private final Function<ValueNode, String> operand;
    private final Set<Helper> helpers;
    private final ExactFloatDivSqrt divSqrt;

    /**
     * @param operand names an input value
     * @param helpers collects the {@link Helper}s the expressions call
     * @param divSqrt the helpers for float {@code /} and {@code sqrt}, or null for OpenCL's operators
     */
    ExpressionEmitter(Function<ValueNode, String> operand, Set<Helper> helpers, ExactFloatDivSqrt divSqrt) {
        this.operand = operand;
        this.helpers = helpers;
        this.divSqrt = divSqrt;
    }

    /** True if computing {@code node} has no effect besides its value (it may be dropped when unused). */
    boolean isPure(ValueNode node) {
        return !(node instanceof FixedNode);
    }

    /** The expression computing {@code node}, or a bailout naming the node's source line. */
    String emit(Node node) {
        if (node instanceof BinaryNode binary && isArithmetic(binary)) {
            return binaryArithmetic(binary);
        }
        if (node instanceof CompareNode compare) {
            return comparison(compare);
        }
        if (node instanceof IntegerTestNode test) {
            return "((" + x(test.getX()) + " & " + x(test.getY()) + ") == 0)";
        }
        if (node instanceof LogicNegationNode negation) {
            return "!" + x(negation.getValue());
        }
        if (node instanceof ConditionalNode conditional) {
            return "(" + x(conditional.condition()) + " ? " + x(conditional.trueValue()) + " : " + x(conditional.falseValue()) + ")";
        }
        if (node instanceof NegateNode negate) {
            if (isInteger(negate) && feedsAComparison(negate)) {
                boolean isInt = type(negate).equals("int");
                return call(isInt ? Helper.NEGATE_FOR_COMPARISON_INT : Helper.NEGATE_FOR_COMPARISON_LONG, "jpai_negate_for_comparison_" + (isInt ? "int" : "long"), x(negate.getValue()));
            }
            return isInteger(negate) ? wrapped(type(negate), "0 - (" + unsignedType(negate) + ")" + x(negate.getValue())) : "(-" + x(negate.getValue()) + ")";
        }
        if (node instanceof NotNode not) {
            return "(~" + x(not.getValue()) + ")";
        }
        if (node instanceof AbsNode abs) {
            if (!isInteger(abs)) {
                return "fabs(" + x(abs.getValue()) + ")";
            }
            // Math.abs(MIN_VALUE) == MIN_VALUE as in Java. Not OpenCL's abs(): PoCL's LLVM takes
            // abs(INT_MIN) as poison and then assumes the result non-negative.
            boolean isInt = type(abs).equals("int");
            return call(isInt ? Helper.ABS_INT : Helper.ABS_LONG, isInt ? "jpai_abs_int" : "jpai_abs_long", x(abs.getValue()));
        }
        if (node instanceof IntegerMulHighNode high) {
            // OpenCL's mul_hi is the high half of the full product, signed for signed operands: Math.multiplyHigh
            return "mul_hi(" + x(high.getX()) + ", " + x(high.getY()) + ")";
        }
        if (node instanceof UnsignedMulHighNode high) {
            String unsigned = unsignedType(high);
            return "as_" + type(high) + "(mul_hi((" + unsigned + ")" + x(high.getX()) + ", (" + unsigned + ")" + x(high.getY()) + "))";
        }
        if (node instanceof CompressBitsNode compress) {
            boolean isInt = type(compress).equals("int");
            return call(isInt ? Helper.COMPRESS_INT : Helper.COMPRESS_LONG, isInt ? "jpai_compress_int" : "jpai_compress_long", x(compress.getX()), x(compress.getY()));
        }
        if (node instanceof ExpandBitsNode expand) {
            boolean isInt = type(expand).equals("int");
            return call(isInt ? Helper.EXPAND_INT : Helper.EXPAND_LONG, isInt ? "jpai_expand_int" : "jpai_expand_long", x(expand.getX()), x(expand.getY()));
        }
        if (node instanceof HalfFloatToFloatNode half) {
            return call(Helper.HALF_TO_FLOAT, "jpai_half_to_float", x(half.getValue()));
        }
        if (node instanceof FloatToHalfFloatNode half) {
            return call(Helper.FLOAT_TO_HALF, "jpai_float_to_half", x(half.getValue()));
        }
        if (node instanceof SqrtNode sqrt) {
            if (divSqrt != null && type(sqrt).equals("float")) {
                return divSqrt == ExactFloatDivSqrt.DOUBLE ? call(Helper.SQRT_FLOAT_DOUBLE, "jpai_sqrt_float_double", x(sqrt.getValue()))
                                : call(Helper.SQRT_FLOAT_FMA, "jpai_sqrt_float_fma", x(sqrt.getValue()));
            }
            return "sqrt(" + x(sqrt.getValue()) + ")";
        }
        // 1-bit values (Graal's stamps for booleans in some conversions) are C bools: true is 1.
        if (node instanceof SignExtendNode extend && extend.getInputBits() == 1) {
            return "((" + type(extend) + ")(" + x(extend.getValue()) + " ? -1 : 0))";
        }
        if (node instanceof ZeroExtendNode extend && extend.getInputBits() == 1) {
            return "((" + type(extend) + ")(" + x(extend.getValue()) + " ? 1 : 0))";
        }
        if (node instanceof NarrowNode narrow && narrow.getResultBits() == 1) {
            return "((" + x(narrow.getValue()) + " & 1) != 0)";
        }
        if (node instanceof SignExtendNode extend) {
            return "((" + type(extend) + ")" + x(extend.getValue()) + ")";
        }
        if (node instanceof ZeroExtendNode extend) {
            String source = OpenCLTypes.unsigned(OpenCLTypes.integerType(extend.getInputBits()));
            return "((" + type(extend) + ")(" + source + ")" + x(extend.getValue()) + ")";
        }
        if (node instanceof NarrowNode narrow) {
            return narrowed(narrow.getResultBits(), x(narrow.getValue()), narrow);
        }
        if (node instanceof FloatConvertNode convert) {
            return floatConvert(convert);
        }
        if (node instanceof ReinterpretNode reinterpret) {
            return "as_" + type(reinterpret) + "(" + x(reinterpret.getValue()) + ")";
        }
        if (node instanceof SignedFloatingIntegerDivNode division) {
            // The divisor is known not to be zero; MIN_VALUE / -1 is MIN_VALUE in Java, undefined in C.
            String x = x(division.getX());
            String y = x(division.getY());
            if (FunctionEmitter.cannotBeMinusOne(division.getY())) {
                return "(" + x + " / " + y + ")";
            }
            return "(" + y + " == -1 ? " + wrapped(type(division), "0 - (" + unsignedType(division) + ")" + x) + " : " + x + " / " + y + ")";
        }
        if (node instanceof SignedFloatingIntegerRemNode remainder) {
            String y = x(remainder.getY());
            if (FunctionEmitter.cannotBeMinusOne(remainder.getY())) {
                return "(" + x(remainder.getX()) + " % " + y + ")";
            }
            return "(" + y + " == -1 ? 0 : " + x(remainder.getX()) + " % " + y + ")";
        }
        if (node instanceof IntegerNormalizeCompareNode compare) {
            String a = x(compare.getX());
            String b = x(compare.getY());
            if (compare.isUnsigned()) {
                String unsigned = OpenCLTypes.unsigned(type(compare.getX()));
                a = "(" + unsigned + ")" + a;
                b = "(" + unsigned + ")" + b;
            }
            return "(" + a + " < " + b + " ? -1 : " + a + " == " + b + " ? 0 : 1)";
        }
        if (node instanceof FloatNormalizeCompareNode compare) {
            String a = x(compare.getX());
            String b = x(compare.getY());
            String unordered = compare.isUnorderedLess() ? "-1" : "1";
            return "(isunordered(" + a + ", " + b + ") ? " + unordered + " : " + a + " < " + b + " ? -1 : " + a + " == " + b + " ? 0 : 1)";
        }
        if (node instanceof MinMaxNode<?> minMax) {
            return minMax(minMax);
        }
        if (node instanceof RoundNode round) {
            // Exact: no rounding error. A NaN is passed through without calling the built-in: PoCL's LLVM
            // miscompiled floor() of a NaN it could see (a loop ran once, not seven times: fuzz seed 42
            // program 5854, FuzzerFoundBugsTest.remainderByZeroInALoop).
            String v = x(round.getValue());
            return "(isnan(" + v + ") ? " + v + " : " + roundingFunction(round.mode()) + "(" + v + "))";
        }
        if (node instanceof RoundFloatToIntegerNode round) {
            boolean isFloat = ((FloatStamp) stamp(round.getValue())).getBits() == 32;
            return call(isFloat ? Helper.ROUND_FLOAT : Helper.ROUND_DOUBLE, "jpai_round_" + (isFloat ? "float" : "double"), x(round.getValue()));
        }
        if (node instanceof SignumNode signum) {
            // Java: 1.0 or -1.0, and zeros and NaN unchanged.
            String v = x(signum.getValue());
            String suffix = type(signum).equals("float") ? "f" : "";
            return "(" + v + " > 0" + " ? 1.0" + suffix + " : " + v + " < 0 ? -1.0" + suffix + " : " + v + ")";
        }
        if (node instanceof CopySignNode copySign) {
            return "copysign(" + x(copySign.getX()) + ", " + x(copySign.getY()) + ")"; // a bit operation, as in Java
        }
        if (node instanceof FusedMultiplyAddNode fma) {
            return "fma(" + x(fma.getX()) + ", " + x(fma.getY()) + ", " + x(fma.getZ()) + ")"; // correctly rounded, as Math.fma
        }
        if (node instanceof BitCountNode count) {
            return "((int) popcount(" + x(count.getValue()) + "))";
        }
        if (node instanceof CountLeadingZerosNode count) {
            return "((int) clz(" + x(count.getValue()) + "))"; // clz(0) is the width, as in Java
        }
        if (node instanceof CountTrailingZerosNode count) {
            boolean isInt = ((IntegerStamp) stamp(count.getValue())).getBits() == 32;
            return call(isInt ? Helper.TRAILING_ZEROS_INT : Helper.TRAILING_ZEROS_LONG, isInt ? "jpai_ctz_int" : "jpai_ctz_long", x(count.getValue()));
        }
        if (node instanceof ReverseBytesNode reverse) {
            // The bytes of the value's vector of uchars in reverse order: independent of the device's endianness.
            int bits = ((IntegerStamp) stamp(reverse)).getBits();
            String t = type(reverse);
            if (bits == 16) { // in an int (see OpenCLTypes): swap the two low bytes arithmetically
                String v = x(reverse.getValue());
                return narrowed(16, "((" + v + " & 0xFF) << 8) | ((" + v + " >> 8) & 0xFF)", reverse);
            }
            String bytes = switch (bits) {
                case 32 -> "as_uchar4((" + t + ")" + x(reverse.getValue()) + ").s3210";
                case 64 -> "as_uchar8((" + t + ")" + x(reverse.getValue()) + ").s76543210";
                default -> throw KernelBailoutException.at(reverse, "ReverseBytes of a " + bits + "-bit value is not supported on OpenCL");
            };
            return "as_" + t + "(" + bytes + ")";
        }
        if (node instanceof ReverseBitsNode reverse) {
            boolean isInt = ((IntegerStamp) stamp(reverse.getValue())).getBits() == 32;
            return call(isInt ? Helper.REVERSE_BITS_INT : Helper.REVERSE_BITS_LONG, isInt ? "jpai_reverse_int" : "jpai_reverse_long", x(reverse.getValue()));
        }
        if (node instanceof FloatTypeTestNode test) {
            // Float/Double.isInfinite and isFinite (Graal's intrinsic where the host CPU has AVX512DQ).
            String v = x(test.getValue());
            return switch (floatTypeTestOp(test)) {
                case IS_INFINITE -> "(isinf(" + v + ") ? 1 : 0)";
                case IS_FINITE -> "(isfinite(" + v + ") ? 1 : 0)";
            };
        }
        if (node instanceof ShortCircuitOrNode or) {
            // Both operands are pure conditions, so evaluating the second only when needed changes nothing.
            String a = (or.isXNegated() ? "!" : "") + x(or.getX());
            String b = (or.isYNegated() ? "!" : "") + x(or.getY());
            return "(" + a + " || " + b + ")";
        }
        if (node instanceof IntegerExactOverflowNode overflow) {
            return exactOverflow(overflow, overflow.getX(), x(overflow.getX()), x(overflow.getY()));
        }
        if (node instanceof IntegerNegExactOverflowNode overflow) {
            ValueNode value = (ValueNode) overflow.inputs().first(); // its one input; the node has no getter
            return exactOverflow(overflow, value, x(value), null);
        }
        if (node instanceof MathCallNode call) {
            // The OpenCL built-in of the same name; its error bound is the device's (docs/java-semantics.md).
            List<String> arguments = call.arguments().stream().map(this::x).toList();
            if (call.function().equals("pow")) {
                return call(Helper.POW, "jpai_pow", String.join(", ", arguments));
            }
            if (arguments.size() == 1) {
                return nanPassedAround(call.function(), arguments.get(0));
            }
            return call.function() + "(" + String.join(", ", arguments) + ")";
        }
        if (node instanceof UnaryMathIntrinsicNode math) {
            return nanPassedAround(mathFunction(math.getOperation()), x(math.getValue()));
        }
        if (node instanceof BinaryMathIntrinsicNode math && math.getOperation() == BinaryMathIntrinsicNode.BinaryOperation.POW) {
            return call(Helper.POW, "jpai_pow", x(math.getX()) + ", " + x(math.getY()));
        }
        throw KernelBailoutException.at(node, JavaConstructs.describe(node) + " is not supported on OpenCL");
    }

    /** The operation of a {@link FloatTypeTestNode}, which has no getter: read from its node class's data fields. */
    private static FloatTypeTestNode.FloatTypeTestOp floatTypeTestOp(FloatTypeTestNode test) {
        Fields data = test.getNodeClass().getAllFields()[0]; // data fields first, then inputs and successors
        for (int i = 0; i < data.getCount(); i++) {
            if (data.getType(i) == FloatTypeTestNode.FloatTypeTestOp.class && data.get(test, i) instanceof FloatTypeTestNode.FloatTypeTestOp op) {
                return op;
            }
        }
        throw KernelBailoutException.at(test, "FloatTypeTest without its operation (Graal's node changed)");
    }

    /**
     * A C condition, true when Java's {@code Math.addExact/subtractExact/multiplyExact/negateExact}
     * of {@code x} and {@code y} (null for negation) overflows the type of {@code operand} (the
     * first operand of {@code node}, an exact overflow test or an exact split node): the sign rules of two's complement
     * for addition and subtraction, the high half of the product for multiplication.
     */
    String exactOverflow(ValueNode node, ValueNode operand, String x, String y) {
        String t = type(operand);
        String u = OpenCLTypes.unsigned(t);
        int bits = ((IntegerStamp) stamp(operand)).getBits();
        String min = bits == 64 ? "(-9223372036854775807L - 1L)" : "(-2147483647 - 1)";
        if (node instanceof IntegerNegExactOverflowNode || node instanceof IntegerNegExactSplitNode) {
            return "(" + x + " == " + min + ")";
        }
        String sum = wrapped(t, "(" + u + ")" + x + " + (" + u + ")" + y);
        String difference = wrapped(t, "(" + u + ")" + x + " - (" + u + ")" + y);
        if (node instanceof IntegerAddExactOverflowNode || node instanceof IntegerAddExactSplitNode) {
            return "(((" + x + " ^ " + sum + ") & (" + y + " ^ " + sum + ")) < 0)";
        }
        if (node instanceof IntegerSubExactOverflowNode || node instanceof IntegerSubExactSplitNode) {
            return "(((" + x + " ^ " + y + ") & (" + x + " ^ " + difference + ")) < 0)";
        }
        if (node instanceof IntegerMulExactOverflowNode || node instanceof IntegerMulExactSplitNode) {
            if (bits == 64) {
                String product = wrapped("long", "(ulong)" + x + " * (ulong)" + y);
                return "(mul_hi(" + x + ", " + y + ") != (" + product + " >> 63))";
            }
            String product = "((long)" + x + " * (long)" + y + ")";
            return "(" + product + " != (long)(int)" + product + ")";
        }
        throw KernelBailoutException.at(node, JavaConstructs.describe(node) + " is not supported on OpenCL");
    }

    /** The value of an exact split node (its result when it does not overflow): the wrapped operation. */
    String exactResult(IntegerExactArithmeticSplitNode split) {
        String t = type(split);
        String u = unsignedType(split);
        if (split instanceof IntegerNegExactSplitNode neg) {
            return wrapped(t, "0 - (" + u + ")" + x(neg.getValue()));
        }
        BinaryIntegerExactArithmeticSplitNode binary = (BinaryIntegerExactArithmeticSplitNode) split;
        String op = split instanceof IntegerAddExactSplitNode ? " + " : split instanceof IntegerSubExactSplitNode ? " - " : " * ";
        return wrapped(t, "(" + u + ")" + x(binary.getX()) + op + "(" + u + ")" + x(binary.getY()));
    }

    private String minMax(MinMaxNode<?> node) {
        boolean isMin = node instanceof MinNode;
        if (node instanceof UnsignedMinNode || node instanceof UnsignedMaxNode) {
            String unsigned = unsignedType(node);
            return wrapped(type(node), (node instanceof UnsignedMinNode ? "min" : "max") + "((" + unsigned + ")" + x(node.getX()) + ", (" + unsigned + ")" + x(node.getY()) + ")");
        }
        if (isInteger(node)) {
            return (isMin ? "min(" : "max(") + x(node.getX()) + ", " + x(node.getY()) + ")";
        }
        // OpenCL's fmin/fmax return the number when one operand is NaN, and may treat -0.0 and 0.0 alike.
        boolean isFloat = type(node).equals("float");
        Helper helper = isMin ? (isFloat ? Helper.MIN_FLOAT : Helper.MIN_DOUBLE) : (isFloat ? Helper.MAX_FLOAT : Helper.MAX_DOUBLE);
        return call(helper, "jpai_" + (isMin ? "min_" : "max_") + (isFloat ? "float" : "double"), x(node.getX()) + ", " + x(node.getY()));
    }

    private static String roundingFunction(RoundingMode mode) {
        return switch (mode) {
            case NEAREST -> "rint"; // ties to even, as Math.rint
            case DOWN -> "floor";
            case UP -> "ceil";
            case TRUNCATE -> "trunc";
        };
    }

    private String call(Helper helper, String function, String... arguments) {
        helpers.add(helper);
        return function + "(" + String.join(", ", arguments) + ")";
    }

    private static boolean isArithmetic(BinaryNode node) {
        return node instanceof AddNode || node instanceof SubNode || node instanceof MulNode || node instanceof FloatDivNode || node instanceof RemNode
                        || node instanceof AndNode || node instanceof OrNode || node instanceof XorNode
                        || node instanceof LeftShiftNode || node instanceof RightShiftNode || node instanceof UnsignedRightShiftNode;
    }

    private String binaryArithmetic(BinaryNode node) {
        String a = x(node.getX());
        String b = x(node.getY());
        if (!isInteger(node)) {
            if (node instanceof RemNode) {
                return "fmod(" + a + ", " + b + ")"; // Java's % on floats truncates, as fmod does, exactly.
            }
            if (node instanceof FloatDivNode && divSqrt != null && type(node).equals("float")) {
                if (divSqrt == ExactFloatDivSqrt.DOUBLE) {
                    return call(Helper.DIV_FLOAT_DOUBLE, "jpai_div_float_double", a, b);
                }
                if (isFloatOne(node.getX()) && node.getY() instanceof SqrtNode root) {
                    // 1.0f / (float) Math.sqrt(x): both roundings, one shared approximation (the helper calls the other two)
                    helpers.add(Helper.DIV_FLOAT_FMA);
                    helpers.add(Helper.SQRT_FLOAT_FMA);
                    return call(Helper.RECIPROCAL_SQRT_FLOAT_FMA, "jpai_reciprocal_sqrt_float_fma", x(root.getValue()));
                }
                return call(Helper.DIV_FLOAT_FMA, "jpai_div_float_fma", a, b);
            }
            return "(" + a + " " + floatOperator(node) + " " + b + ")";
        }
        String unsigned = unsignedType(node);
        int bits = ((IntegerStamp) stamp(node)).getBits();
        String count = "(" + b + " & " + (bits - 1) + ")"; // Java masks shift counts to the operand width.
        if (node instanceof AddNode) {
            return wrapped(type(node), "(" + unsigned + ")" + a + " + (" + unsigned + ")" + b);
        } else if (node instanceof SubNode) {
            return wrapped(type(node), "(" + unsigned + ")" + a + " - (" + unsigned + ")" + b);
        } else if (node instanceof MulNode) {
            return wrapped(type(node), "(" + unsigned + ")" + a + " * (" + unsigned + ")" + b);
        } else if (node instanceof AndNode) {
            return "(" + a + " & " + b + ")";
        } else if (node instanceof OrNode) {
            return "(" + a + " | " + b + ")";
        } else if (node instanceof XorNode) {
            return "(" + a + " ^ " + b + ")";
        } else if (node instanceof LeftShiftNode) {
            return wrapped(type(node), "(" + unsigned + ")" + a + " << " + count);
        } else if (node instanceof RightShiftNode) {
            return "(" + a + " >> " + count + ")"; // OpenCL C defines >> on signed values as arithmetic.
        } else if (node instanceof UnsignedRightShiftNode) {
            return wrapped(type(node), "(" + unsigned + ")" + a + " >> " + count);
        }
        throw KernelBailoutException.at(node, JavaConstructs.describe(node) + " on integers is not supported on OpenCL");
    }

    /** True for the float constant 1.0f. */
    private static boolean isFloatOne(ValueNode value) {
        return value instanceof ConstantNode constant && constant.asJavaConstant() != null && constant.asJavaConstant().getJavaKind() == jdk.vm.ci.meta.JavaKind.Float
                        && Float.floatToRawIntBits(constant.asJavaConstant().asFloat()) == Float.floatToRawIntBits(1.0f);
    }

    private static String floatOperator(BinaryNode node) {
        if (node instanceof AddNode) {
            return "+";
        } else if (node instanceof SubNode) {
            return "-";
        } else if (node instanceof MulNode) {
            return "*";
        } else if (node instanceof FloatDivNode) {
            return "/";
        }
        throw KernelBailoutException.at(node, JavaConstructs.describe(node) + " on floating-point values is not supported on OpenCL");
    }

    private String comparison(CompareNode compare) {
        String a = x(compare.getX());
        String b = x(compare.getY());
        String result;
        if (compare instanceof IntegerEqualsNode || compare instanceof FloatEqualsNode) {
            result = a + " == " + b;
        } else if (compare instanceof IntegerLessThanNode || compare instanceof FloatLessThanNode) {
            result = a + " < " + b;
        } else if (compare instanceof IntegerBelowNode) {
            String unsigned = OpenCLTypes.unsigned(OpenCLTypes.valueType(stamp(compare.getX())));
            result = "(" + unsigned + ")" + a + " < (" + unsigned + ")" + b;
        } else {
            throw KernelBailoutException.at(compare, JavaConstructs.describe(compare) + " is not supported on OpenCL");
        }
        if (compare.unorderedIsTrue()) {
            result = result + " || isunordered(" + a + ", " + b + ")";
        }
        return "(" + result + ")";
    }

    private String floatConvert(FloatConvertNode convert) {
        String value = x(convert.getValue());
        FloatConvert op = convert.getFloatConvert();
        return switch (op) {
            // Java: NaN becomes 0, out-of-range values saturate, rounding is toward zero.
            case F2I, D2I -> "(isnan(" + value + ") ? 0 : convert_int_sat_rtz(" + value + "))";
            case F2L, D2L -> "(isnan(" + value + ") ? 0L : convert_long_sat_rtz(" + value + "))";
            case I2F, L2F, D2F -> "convert_float_rte(" + value + ")";
            case I2D, F2D -> "convert_double(" + value + ")";
            case L2D -> "convert_double_rte(" + value + ")";
            default -> throw KernelBailoutException.at(convert, "the conversion " + op + " is not supported on OpenCL");
        };
    }

    /**
     * A one-argument built-in with Java's NaN rule decided before it is called: every such
     * {@code Math} function returns NaN for NaN. PoCL's {@code expm1f} returned a number for a NaN it
     * could see (fuzz seed 42 program 4783), as its {@code floor} did.
     */
    private static String nanPassedAround(String function, String argument) {
        return "(isnan(" + argument + ") ? " + argument + " : " + function + "(" + argument + "))";
    }

    private static String mathFunction(UnaryMathIntrinsicNode.UnaryOperation operation) {
        return switch (operation) {
            case LOG -> "log";
            case LOG10 -> "log10";
            case SIN -> "sin";
            case COS -> "cos";
            case TAN -> "tan";
            case TANH -> "tanh";
            case EXP -> "exp";
            case CBRT -> "cbrt";
        };
    }

    /**
     * An unsigned computation's value as the signed type {@code int} or {@code long}: two's complement
     * wrap-around, as in Java.
     */
    String wrapped(String signedType, String unsignedExpression) {
        // as_int/as_long reinterpret the bits (OpenCL C 6.2.4.1): defined, and no signed operation
        // for a compiler to flag as non-overflowing.
        return switch (signedType) {
            case "int" -> "as_int((uint)(" + unsignedExpression + "))";
            case "long" -> "as_long((ulong)(" + unsignedExpression + "))";
            default -> throw new IllegalArgumentException("no wrapping for " + signedType);
        };
    }

    /** Java's narrowing of an integer {@code value} to {@code bits} (8, 16, 32) bits: its low bits as a signed value. */
    String narrowed(int bits, String value, Node at) {
        return switch (bits) {
            case 8 -> call(Helper.NARROW_BYTE, "jpai_narrow_byte", "(long)(" + value + ")");
            case 16 -> call(Helper.NARROW_SHORT, "jpai_narrow_short", "(long)(" + value + ")");
            case 32 -> wrapped("int", "(uint)(" + value + ")");
            default -> throw KernelBailoutException.at(at, "a narrowing to " + bits + " bits is not supported on OpenCL");
        };
    }

    private String x(ValueNode value) {
        return operand.apply(value);
    }

    private static Stamp stamp(ValueNode node) {
        return node.stamp(NodeView.DEFAULT);
    }

    /** Whether an ordered comparison or a min/max uses {@code value} (see {@link Helper#NEGATE_FOR_COMPARISON_INT}). */
    private static boolean feedsAComparison(ValueNode value) {
        for (Node usage : value.usages()) {
            if (usage instanceof IntegerLessThanNode || usage instanceof IntegerBelowNode || usage instanceof IntegerNormalizeCompareNode || usage instanceof MinMaxNode<?>) {
                return true;
            }
        }
        return false;
    }

    private static boolean isInteger(ValueNode node) {
        return stamp(node) instanceof IntegerStamp;
    }

    private static String type(ValueNode node) {
        return OpenCLTypes.valueType(stamp(node));
    }

    private static String unsignedType(ValueNode node) {
        Stamp stamp = stamp(node);
        if (stamp instanceof FloatStamp) {
            throw new IllegalArgumentException("no unsigned floating-point type");
        }
        return OpenCLTypes.unsigned(OpenCLTypes.valueType(stamp));
    }
}
