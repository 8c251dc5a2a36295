package jpai.runtime.profile;

/**
 * Writes one flat JSON object, by hand so that profiles need no library: strings are escaped as
 * RFC 8259 requires, null is written as {@code null}.
 *
 * <p>Not thread-safe: one per object written.
 */
public final class Json {

    private final StringBuilder text = new StringBuilder("{");

    public Json field(String name, String value) {
        key(name);
        if (value == null) {
            text.append("null");
        } else {
            quote(value);
        }
        return this;
    }

    public Json field(String name, long value) {
        key(name);
        text.append(value);
        return this;
    }

    public Json field(String name, boolean value) {
        key(name);
        text.append(value);
        return this;
    }

    @Override
    public String toString() {
        return text + "}";
    }

    private void key(String name) {
        if (text.length() > 1) {
            text.append(',');
        }
        quote(name);
        text.append(':');
    }

    private void quote(String value) {
        text.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                case '\t' -> text.append("\\t");
                default -> {
                    if (c < 0x20) {
                        text.append(String.format("\\u%04x", (int) c));
                    } else {
                        text.append(c);
                    }
                }
            }
        }
        text.append('"');
    }
}
