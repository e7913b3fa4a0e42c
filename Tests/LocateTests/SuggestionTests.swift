import Testing

@testable import locate

struct SuggestionTests {
    @Test func findsSlipsButNotOtherWords() {
        let names = ["status", "geocode", "monitor", "visits", "permission", "help"]
        #expect(Suggestion.nearest("statsu", among: names) == ["status"], "two letters swapped are one slip")
        #expect(Suggestion.nearest("geocod", among: names) == ["geocode"])
        #expect(Suggestion.nearest("HELP", among: names) == ["help"])
        #expect(Suggestion.nearest("hlep", among: names) == ["help"])
        #expect(Suggestion.nearest("passwd", among: names).isEmpty, "a plocate habit is no slip of a command")
        #expect(Suggestion.nearest("gps", among: ["gpx", "gpsd"]).isEmpty, "three letters must match exactly")
        #expect(Suggestion.nearest("raspberrypi", among: names).isEmpty)
        #expect(Suggestion.didYouMean("--folow", among: ["--follow", "--format"]) == "; did you mean '--follow'?")
        #expect(Suggestion.didYouMean("--zzz", among: ["--follow"]).isEmpty)
    }
}
