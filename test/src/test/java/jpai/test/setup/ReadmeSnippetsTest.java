package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The examples project is made of exactly the README's snippets: every XML block of "Use JPAI in
 * your project" (the dependency, the dependency plugin, Surefire, exec-maven-plugin) appears in
 * {@code examples/pom.xml}, up to layout and the main class's name. So what
 * {@link ExamplesProjectTest} proves on the device is what a user copies.
 */
class ReadmeSnippetsTest {

    private static final Pattern XML_BLOCK = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyXmlSnippetOfTheReadmesSetupSectionIsInTheExamplesPom() throws IOException {
        Path checkout = Path.of(System.getProperty("jpai.checkout"));
        String readme = Files.readString(checkout.resolve("README.md"));
        int start = readme.indexOf("## Use JPAI in your project");
        int end = readme.indexOf("\n## ", start + 1);
        assertTrue(start >= 0 && end > start, "README has the section \"Use JPAI in your project\"");
        String pom = normalised(Files.readString(checkout.resolve("examples/pom.xml")).replaceAll("(?s)<!--.*?-->", ""));

        Matcher blocks = XML_BLOCK.matcher(readme.substring(start, end));
        int found = 0;
        while (blocks.find()) {
            String snippet = normalised(blocks.group(1)).replace("com.example.Main", "com.example.Saxpy");
            assertTrue(pom.contains(snippet), "examples/pom.xml lacks the README's snippet:\n" + blocks.group(1));
            found++;
        }
        assertEquals(4, found, "the README's snippets: the dependency, the dependency plugin, Surefire, exec-maven-plugin");
    }

    @Test
    void theReadmeAndTheExamplesProjectNameThisBuildsVersion() throws IOException {
        Path checkout = Path.of(System.getProperty("jpai.checkout"));
        String dependency = normalised("<artifactId>jpai-runtime</artifactId><version>" + System.getProperty("jpai.version") + "</version>");
        assertTrue(normalised(Files.readString(checkout.resolve("README.md"))).contains(dependency), "README's dependency snippet names " + dependency + " (bin/set-version)");
        assertTrue(normalised(Files.readString(checkout.resolve("examples/pom.xml"))).contains(dependency), "examples/pom.xml names " + dependency + " (bin/set-version)");
    }

    /** The XML with no whitespace between tags and none at either end. */
    private static String normalised(String xml) {
        return List.of(xml.strip().split("\\R")).stream().map(String::strip).reduce("", String::concat).replaceAll(">\\s+<", "><");
    }
}
