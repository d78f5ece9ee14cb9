"""JUnit XML reports (Maven, Gradle, nextest) and the feed of raw runs that left reports behind."""
