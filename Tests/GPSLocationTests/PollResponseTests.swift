import LocateSupport
import Testing

@testable import GPSLocation

struct PollResponseTests {
    /// The first object of the array `key` in `line`, as text.
    private func object(_ key: String, _ line: String) -> String? {
        FlatJSON.firstObject(inArray: key, of: Array(line.utf8)[...]).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func cutsTheFirstObjectOfAnArray() {
        let line =
            #"{"class":"POLL","time":"2026-01-01T08:00:06.000Z","active":1,"tpv":[{"class":"TPV","mode":3,"lat":1.5},{"class":"TPV","mode":2}],"sky":[]}"#
        #expect(PollResponse.isPoll(line.utf8))
        #expect(object("tpv", line) == #"{"class":"TPV","mode":3,"lat":1.5}"#)
        #expect(object("sky", line) == nil)
        #expect(object("gst", line) == nil)
    }

    @Test func skipsBracesAndQuotesInsideStrings() {
        let line = #"{"class":"POLL","tpv":[{"class":"TPV","device":"/dev/{odd}\"name}","mode":2}]}"#
        #expect(object("tpv", line) == #"{"class":"TPV","device":"/dev/{odd}\"name}","mode":2}"#)
    }

    @Test func refusesAnObjectCutShort() {
        #expect(object("tpv", #"{"class":"POLL","tpv":[{"class":"TPV","mode":3"#) == nil)
        #expect(object("tpv", #"{"class":"POLL","sky":[{"a":[[[1]]]}],"tpv":[{"mode":3}]}"#) == #"{"mode":3}"#, "nested values are skipped")
        #expect(object("tpv", #"{"class":"POLL","tpv":[1,{"mode":3}]}"#) == nil, "the first element must be the object")
        #expect(object("tpv", #"{"class":"POLL","x":"# + String(repeating: "[", count: 100) + #"],"tpv":[{}]}"#) == nil, "too deep")
        #expect(!PollResponse.isPoll(#"{"class":"TPV","mode":3}"#.utf8))
    }
}
