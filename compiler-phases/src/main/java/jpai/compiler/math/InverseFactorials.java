package jpai.compiler.math;

/** 1/n!, rounded to {@code double}: the Taylor coefficients of the float-argument functions' polynomials. */
final class InverseFactorials {

    static final double F2 = 0x1.0p-1;
    static final double F3 = 0x1.5555555555555p-3;
    static final double F4 = 0x1.5555555555555p-5;
    static final double F5 = 0x1.1111111111111p-7;
    static final double F6 = 0x1.6c16c16c16c17p-10;
    static final double F7 = 0x1.a01a01a01a01ap-13;
    static final double F8 = 0x1.a01a01a01a01ap-16;
    static final double F9 = 0x1.71de3a556c734p-19;
    static final double F10 = 0x1.27e4fb7789f5cp-22;
    static final double F11 = 0x1.ae64567f544e4p-26;
    static final double F12 = 0x1.1eed8eff8d898p-29;
    static final double F13 = 0x1.6124613a86d09p-33;
    static final double F14 = 0x1.93974a8c07c9dp-37;
    static final double F15 = 0x1.ae7f3e733b81fp-41;
    static final double F16 = 0x1.ae7f3e733b81fp-45;

    private InverseFactorials() {
    }
}
