import Testing
@testable import GPSLocation

struct PollResponseTests {
    @Test func cutsTheFirstObjectOfAnArray() {
        let line = #"{"class":"POLL","time":"2026-01-01T08:00:06.000Z","active":1,"tpv":[{"class":"TPV","mode":3,"lat":1.5},{"class":"TPV","mode":2}],"sky":[]}"#
        #expect(PollResponse.isPoll(line))
        #expect(PollResponse.firstObject(inArray: "tpv", of: line) == #"{"class":"TPV","mode":3,"lat":1.5}"#)
        #expect(PollResponse.firstObject(inArray: "sky", of: line) == nil)
        #expect(PollResponse.firstObject(inArray: "gst", of: line) == nil)
    }

    @Test func skipsBracesAndQuotesInsideStrings() {
        let line = #"{"class":"POLL","tpv":[{"class":"TPV","device":"/dev/{odd}\"name}","mode":2}]}"#
        #expect(PollResponse.firstObject(inArray: "tpv", of: line) == #"{"class":"TPV","device":"/dev/{odd}\"name}","mode":2}"#)
    }

    @Test func refusesAnObjectCutShort() {
        #expect(PollResponse.firstObject(inArray: "tpv", of: #"{"class":"POLL","tpv":[{"class":"TPV","mode":3"#) == nil)
        #expect(!PollResponse.isPoll(#"{"class":"TPV","mode":3}"#))
    }
}
